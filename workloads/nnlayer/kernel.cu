// nnlayer: forward pass of a fully connected neural-network layer with a
// logistic activation, y[s][o] = 1 / (1 + exp(-(bias[o] + sum_i w[i][o] x[s][i]))).
// One thread per (sample, output neuron); a CTA of 64 threads covers 64
// consecutive neurons of one sample (grid: neuron groups x samples). Weights
// are stored input-major (w[i * nout + o]) so the lanes of a warp read
// consecutive weights; the sample's inputs are broadcast to all lanes.
extern "C" __global__ void nn_layer_forward(const float* __restrict__ x,
                                            const float* __restrict__ w,
                                            const float* __restrict__ bias,
                                            float* __restrict__ y, int nin, int nout) {
  const int o = blockIdx.x * blockDim.x + threadIdx.x;
  const int s = blockIdx.y;
  if (o >= nout) return;
  const float* in = x + (size_t)s * nin;
  float acc = bias[o];
  for (int i = 0; i < nin; ++i) acc += w[(size_t)i * nout + o] * in[i];
  y[(size_t)s * nout + o] = 1.0f / (1.0f + expf(-acc));
}
