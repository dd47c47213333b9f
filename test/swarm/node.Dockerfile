# A swarm node for tests on one machine: a Docker engine in a container (Debian's docker.io),
# and Debian's docker-registry for the cluster's registry. Started by swarmCluster.ts with the
# flags ../shared/RECIPES.md gives for an engine inside a container on these machines.
ARG BASE
FROM ${BASE}
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends docker.io docker-registry iptables ca-certificates procps \
 && rm -rf /var/lib/apt/lists/*
