// How every backend marks and reaches an environment: the label that names it (on the Docker
// backend's container and network, on a Swarm service and its container), the label that keeps
// its bridge token where only the host reads it (never inside the container), and the port its
// bridge listens on.
export const LABEL = 'pwp.environment';
export const TOKEN_LABEL = 'pwp.token';
export const BRIDGE_PORT = 7000;
