// SPDX-License-Identifier: Apache-2.0
// Probe: store-bound init3d on the GPU under several launch shapes; cudaMemset as anchor.
#include <cstdio>
#include <cstdint>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#define CK(x)                                        \
  do {                                               \
    cudaError_t e = (x);                             \
    if (e != cudaSuccess) {                          \
      printf("%s: %s\n", #x, cudaGetErrorString(e)); \
      return 1;                                      \
    }                                                \
  } while (0)

struct Body {
  double* a;
  int64_t n1, n2;
  double c;
  __device__ void operator()(int64_t i, int64_t j, int64_t k) const {
    a[(i * n1 + j) * n2 + k] = c * double(i) * double(j) * double(k);
  }
};

// kapi's current 3-d range kernel: x along k (32), y along j (8), z strides over i.
template <int BX, int BY>
__global__ void __launch_bounds__(BX* BY) range3d(Body f, int64_t n0, int64_t n1, int64_t n2) {
  const int64_t k = int64_t(blockIdx.x) * BX + threadIdx.x;
  if (k >= n2) return;
  for (int64_t i = blockIdx.z; i < n0; i += gridDim.z)
    for (int64_t j = int64_t(blockIdx.y) * BY + threadIdx.y; j < n1; j += int64_t(gridDim.y) * BY) f(i, j, k);
}
// i-major variant: z over i in contiguous chunks per block (each block walks consecutive planes).
template <int BX, int BY>
__global__ void __launch_bounds__(BX* BY) range3d_chunk(Body f, int64_t n0, int64_t n1, int64_t n2, int64_t per) {
  const int64_t k = int64_t(blockIdx.x) * BX + threadIdx.x;
  if (k >= n2) return;
  const int64_t j = int64_t(blockIdx.y) * BY + threadIdx.y;
  if (j >= n1) return;
  const int64_t i0 = int64_t(blockIdx.z) * per, i1 = min(n0, i0 + per);
  for (int64_t i = i0; i < i1; ++i) f(i, j, k);
}
// flat 1-d over all points, grid-stride, decomposed with divisions
__global__ void __launch_bounds__(256) flat(Body f, int64_t n0, int64_t n1, int64_t n2) {
  const int64_t n = n0 * n1 * n2;
  for (int64_t x = int64_t(blockIdx.x) * 256 + threadIdx.x; x < n; x += int64_t(gridDim.x) * 256) {
    const int64_t k = x % n2, r = x / n2, j = r % n1, i = r / n1;
    f(i, j, k);
  }
}
// one item per thread, no loop (3-d grid: x along k, y along j, z = i)
template <int BX, int BY>
__global__ void __launch_bounds__(BX* BY) onepoint(Body f, int64_t n0, int64_t n1, int64_t n2) {
  const int64_t k = int64_t(blockIdx.x) * BX + threadIdx.x, j = int64_t(blockIdx.y) * BY + threadIdx.y, i = blockIdx.z;
  if (k < n2 && j < n1) f(i, j, k);
}

int main() {
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  printf("device %s, %d SMs, L2 %d MiB\n", p.name, p.multiProcessorCount, p.l2CacheSize >> 20);
  const int64_t wave = int64_t(p.multiProcessorCount) * 2048 / 256;
  cudaEvent_t e0, e1;
  cudaEventCreate(&e0);
  cudaEventCreate(&e1);
  for (int64_t N : {600, 800, 1000}) {
    const int64_t n = N * N * N;
    double* a;
    CK(cudaMalloc(&a, n * 8));
    Body f{a, N, N, 0.0001};
    f.n2 = N;
    auto time = [&](auto launch) {
      std::vector<float> t;
      for (int r = 0; r < 7; ++r) {
        cudaEventRecord(e0);
        launch();
        cudaEventRecord(e1);
        cudaEventSynchronize(e1);
        float ms;
        cudaEventElapsedTime(&ms, e0, e1);
        t.push_back(ms);
      }
      std::sort(t.begin(), t.end());
      return double(n * 8) / (t[3] * 1e-3) / 1e9;
    };
    const double memset_bw = time([&] { cudaMemsetAsync(a, 0, n * 8); });
    printf("N=%ld memset %.0f GB/s\n", long(N), memset_bw);
    auto report = [&](const char* name, double bw) {
      printf("  %-40s %6.0f GB/s %5.1f%%\n", name, bw, 100 * bw / memset_bw);
    };
    const int64_t gx = (N + 31) / 32, gy = (N + 7) / 8;
    for (int64_t waves : {4, 8, 16, 32, 64, 128, 100000}) {
      const int64_t blocks = std::clamp(gx * gy * N / 4, 8 * wave, waves * wave);
      const unsigned gz =
          unsigned(std::min<int64_t>(std::min<int64_t>(65535, N), std::max<int64_t>(1, blocks / (gx * gy))));
      char name[80];
      snprintf(name, 80, "range3d 32x8 max-waves %ld (z %u)", long(waves), gz);
      report(name, time([&] { range3d<32, 8><<<dim3(gx, gy, gz), dim3(32, 8)>>>(f, N, N, N); }));
    }
    for (int64_t per : {1, 2, 4, 8, 16}) {
      const unsigned gz = unsigned((N + per - 1) / per);
      char name[80];
      snprintf(name, 80, "range3d_chunk 32x8 planes/block %ld", long(per));
      report(name, time([&] { range3d_chunk<32, 8><<<dim3(gx, gy, gz), dim3(32, 8)>>>(f, N, N, N, per); }));
    }
    report("onepoint 32x8", time([&] { onepoint<32, 8><<<dim3(gx, gy, N), dim3(32, 8)>>>(f, N, N, N); }));
    report("onepoint 64x4",
           time([&] { onepoint<64, 4><<<dim3((N + 63) / 64, (N + 3) / 4, N), dim3(64, 4)>>>(f, N, N, N); }));
    report("onepoint 128x2",
           time([&] { onepoint<128, 2><<<dim3((N + 127) / 128, (N + 1) / 2, N), dim3(128, 2)>>>(f, N, N, N); }));
    report("onepoint 256x1",
           time([&] { onepoint<256, 1><<<dim3((N + 255) / 256, N, N), dim3(256, 1)>>>(f, N, N, N); }));
    report("onepoint 32x32", time([&] { onepoint<32, 32><<<dim3(gx, (N + 31) / 32, N), dim3(32, 32)>>>(f, N, N, N); }));
    for (int64_t waves : {8, 32, 128}) {
      char name[80];
      snprintf(name, 80, "flat 1-d grid-stride %ld waves", long(waves));
      report(name, time([&] { flat<<<unsigned(waves * wave), 256>>>(f, N, N, N); }));
    }
    CK(cudaGetLastError());
    cudaFree(a);
  }
}
