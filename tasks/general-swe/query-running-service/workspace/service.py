"""A small latency-tracking service used during development.

It replays a fixed request log at start-up and serves aggregate figures over HTTP.
"""
import json
import random
from http.server import BaseHTTPRequestHandler, HTTPServer

PORT = 8765


def replay_log(seed: int = 20241, n: int = 400) -> list[int]:
    rng = random.Random(seed)
    latencies = []
    for i in range(n):
        base = rng.randint(12, 80)
        if i % 37 == 0:
            base += rng.randint(150, 400)  # a slow request now and then
        latencies.append(base)
    return latencies


def percentile(values: list[int], p: float) -> int:
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


LATENCIES = replay_log()


class Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        if self.path == "/stats":
            body = {
                "requests": len(LATENCIES),
                "p50_ms": percentile(LATENCIES, 50),
                "p95_ms": percentile(LATENCIES, 95),
                "max_ms": max(LATENCIES),
            }
            data = json.dumps(body).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        else:
            self.send_error(404)

    def log_message(self, fmt: str, *args: object) -> None:
        pass


if __name__ == "__main__":
    HTTPServer(("127.0.0.1", PORT), Handler).serve_forever()
