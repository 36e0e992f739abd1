// SPDX-License-Identifier: Apache-2.0
#pragma once
// The host reference the example checks every form against: the box blur written as
// plainly as possible, sharing no code with the kernels, and the sample data.
#include <algorithm>
#include <cstddef>
#include <vector>

namespace guide {

/// Sample input: whole numbers below 101, so that every window's sum is exact in float
/// and every form of the blur gives bit-identical results, whatever order it sums in.
inline float sample_value(std::size_t i) { return float((i * 37 + 11) % 101); }

inline std::vector<float> sample_signal(std::size_t n) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = sample_value(i);
  return v;
}

/// out[i] = the mean of in[i - radius] ... in[i + radius], indices clamped to the ends.
inline std::vector<float> box_blur_reference(const std::vector<float>& in, int radius) {
  const long n = long(in.size());
  std::vector<float> out(in.size());
  for (long i = 0; i < n; ++i) {
    float sum = 0;
    for (long j = i - radius; j <= i + radius; ++j) sum += in[std::size_t(std::clamp(j, 0L, n - 1))];
    out[std::size_t(i)] = sum / float(2 * radius + 1);
  }
  return out;
}

}  // namespace guide
