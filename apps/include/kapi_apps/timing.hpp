// SPDX-License-Identifier: Apache-2.0
#pragma once
// Timing of one app variant: the execution space is fenced inside the timed region, so
// asynchronous backends are timed to completion; the median of the repeats is reported.
#include <algorithm>
#include <chrono>
#include <vector>

namespace kapi_apps {

struct Timing {
  double median_s = 0, min_s = 0;
  int repeats = 0;
};

/// Runs `work` once untimed (warm-up: first-touch, scratch allocation, code loading),
/// then `repeats` times timed, each ending with space.fence().
template <class ExecSpace, class Work>
Timing time_median(const ExecSpace& space, int repeats, const Work& work) {
  work();
  space.fence();
  std::vector<double> s;
  for (int r = 0; r < std::max(1, repeats); ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    work();
    space.fence();
    s.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(s.begin(), s.end());
  Timing t;
  t.repeats = static_cast<int>(s.size());
  t.min_s = s.front();
  t.median_s = s.size() % 2 ? s[s.size() / 2] : 0.5 * (s[s.size() / 2 - 1] + s[s.size() / 2]);
  return t;
}

}  // namespace kapi_apps
