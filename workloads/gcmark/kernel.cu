// gcmark: the mark phase of a tracing garbage collector. Objects form a
// directed graph: object o has the pointer fields fields[first_field[o] ..
// first_field[o + 1]) holding object indices or -1 (null). Each thread takes
// one start object and traces depth-first with a small private stack (local
// memory), chasing pointers object by object. Marking is one bit per object
// in a global bitmap set with atomicOr; only the thread whose atomicOr set the
// bit scans the object, so every reachable object is scanned exactly once,
// whatever the interleaving. When a thread's stack is full, a newly marked
// object is appended to an overflow list (atomicAdd on its count) and is
// scanned by the next launch, which starts from the overflow list with the
// objects already marked (starts_marked = 1). The host relaunches until a
// launch overflows nothing; the final bitmap is the reachable set.
#define STACK_DEPTH 16

__device__ __forceinline__ bool try_mark(unsigned int* bitmap, int o) {
  const unsigned int bit = 1u << (o & 31);
  return (atomicOr(&bitmap[o >> 5], bit) & bit) == 0;
}

extern "C" __global__ void gc_mark(const int* __restrict__ starts, int nstarts, int starts_marked,
                                   const int* __restrict__ first_field,
                                   const int* __restrict__ fields, unsigned int* bitmap,
                                   int* overflow, int* overflow_count) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= nstarts) return;
  int stack[STACK_DEPTH];
  int sp = 0;
  const int start = starts[t];
  if (starts_marked || try_mark(bitmap, start)) stack[sp++] = start;
  while (sp > 0) {
    const int o = stack[--sp];
    const int end = first_field[o + 1];
    for (int f = first_field[o]; f < end; ++f) {
      const int child = fields[f];
      if (child < 0 || !try_mark(bitmap, child)) continue;
      if (sp < STACK_DEPTH) {
        stack[sp++] = child;
      } else {
        overflow[atomicAdd(overflow_count, 1)] = child;
      }
    }
  }
}
