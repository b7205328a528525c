// bfs: one level of a level-synchronous breadth-first search over a CSR graph.
//
// dist[v] is the BFS level of node v, or -1 while unvisited. The host starts
// with dist[source] = 0 and launches this kernel for level = 0, 1, 2, ...: one
// thread per node; a node whose dist equals `level` (the current frontier)
// visits its out-neighbours and gives every unvisited one level + 1, raising
// *changed. The host stops after a level that changed nothing.
//
// Threads of one level may race on the same neighbour, but they all write the
// same value (level + 1) and only nodes at exactly `level` expand, so nodes
// discovered during a launch are not expanded in it: the result is the exact
// BFS distance whatever the interleaving.
extern "C" __global__ void bfs_level(const int* __restrict__ row_offsets,
                                     const int* __restrict__ col_indices, int* dist, int level,
                                     int num_nodes, int* changed) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= num_nodes || dist[v] != level) return;
  const int end = row_offsets[v + 1];
  for (int e = row_offsets[v]; e < end; ++e) {
    const int u = col_indices[e];
    if (dist[u] < 0) {
      dist[u] = level + 1;
      *changed = 1;
    }
  }
}
