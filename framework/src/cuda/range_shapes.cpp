// SPDX-License-Identifier: Apache-2.0
// The 3-d range launch's shape tuner (cuda/detail/range_shapes.hpp). Per kernel, extent
// and device: the first launches run the candidate shapes in turn, each timed by a pair
// of events, until every shape has been timed twice (the first launch of a kernel may
// also pay for loading its module); the launch after the last of them completed picks
// the fastest, which every later launch runs. Events are read without waiting: a launch
// whose earlier trials are still running takes the next candidate, or the best so far.
#include <algorithm>
#include <array>
#include <map>
#include <mutex>
#include <tuple>
#include <vector>

#include <kapi/cuda/detail/range_shapes.hpp>
#include <kapi/detail/launch_shape_setting.hpp>
#include <kapi/errors.hpp>

namespace kapi::detail {
namespace {

constexpr int samples_per_shape = 2;
constexpr std::size_t max_tuned_kernels = 4096;  // past it, new kernels run the first shape untimed

// Clears the runtime's last error where it is only what the event queries left, so that
// the next launch check does not report it; a launch's own error stays for its check.
void forget_not_ready() {
  const cudaError_t last = cudaPeekAtLastError();
  if (last == cudaErrorNotReady || last == cudaErrorInvalidResourceHandle) (void)cudaGetLastError();
}

struct Trial {
  int shape;
  cudaEvent_t start, stop;
};

struct Tuning {
  std::string label;
  std::array<int, cuda_range_shape_count> issued{}, timed{};
  std::array<float, cuda_range_shape_count> best_ms{};
  std::vector<Trial> pending;
  int chosen = -1;
};

using Key = std::tuple<const void*, std::int64_t, std::int64_t, std::int64_t, int>;

struct Tuner {
  std::mutex mutex;
  std::map<Key, Tuning> kernels;
  std::vector<cudaEvent_t> spare_events;

  cudaEvent_t event() {
    if (!spare_events.empty()) {
      const cudaEvent_t e = spare_events.back();
      spare_events.pop_back();
      return e;
    }
    cudaEvent_t e = nullptr;
    if (cudaEventCreate(&e) != cudaSuccess)
      throw launch_error(std::string("a range kernel's shape tuning failed to create an event: ") +
                         cudaGetErrorString(cudaGetLastError()));
    return e;
  }

  // Reads the trials that have finished, without waiting for the others.
  void collect(Tuning& t) {
    for (auto it = t.pending.begin(); it != t.pending.end();) {
      const cudaError_t state = cudaEventQuery(it->stop);
      if (state == cudaErrorNotReady) {
        forget_not_ready();  // not an error: the trial is still running
        ++it;
        continue;
      }
      float ms = 0;
      if (state != cudaSuccess || cudaEventElapsedTime(&ms, it->start, it->stop) != cudaSuccess) {
        // A trial whose launch failed (its stop event never recorded; the launch threw):
        // no time, and the shape is tried again.
        forget_not_ready();
        --t.issued[it->shape];
        cudaEventDestroy(it->start);
        cudaEventDestroy(it->stop);
        it = t.pending.erase(it);
        continue;
      }
      auto& best = t.best_ms[it->shape];
      best = t.timed[it->shape]++ == 0 ? ms : std::min(best, ms);
      spare_events.push_back(it->start);
      spare_events.push_back(it->stop);
      it = t.pending.erase(it);
    }
  }

  void choose(Tuning& t, const Key& key) {
    t.chosen = int(std::min_element(t.best_ms.begin(), t.best_ms.end()) - t.best_ms.begin());
    LaunchShapeChoice choice;
    choice.kernel = t.label;
    choice.extent = {std::get<1>(key), std::get<2>(key), std::get<3>(key)};
    choice.shape = cuda_range_shape_names[t.chosen];
    choice.shapes.assign(std::begin(cuda_range_shape_names), std::end(cuda_range_shape_names));
    choice.times.assign(t.best_ms.begin(), t.best_ms.end());
    record_launch_shape_choice(std::move(choice));
  }

  CudaRangeTrial trial(const Key& key, const std::string& label) {
    const std::lock_guard<std::mutex> lock(mutex);
    auto found = kernels.find(key);
    if (found == kernels.end()) {
      if (kernels.size() >= max_tuned_kernels) return {};
      found = kernels.emplace(key, Tuning{}).first;
      found->second.label = label;
    }
    Tuning& t = found->second;
    if (t.chosen >= 0) return {t.chosen};
    collect(t);
    const bool all_timed = std::all_of(t.timed.begin(), t.timed.end(), [](int n) { return n >= samples_per_shape; });
    if (all_timed) {
      choose(t, key);
      return {t.chosen};
    }
    const int next = int(std::min_element(t.issued.begin(), t.issued.end()) - t.issued.begin());
    if (t.issued[next] >= samples_per_shape) {  // every trial issued, some still running: the best so far
      int best = -1;
      for (int s = 0; s < cuda_range_shape_count; ++s)
        if (t.timed[s] > 0 && (best < 0 || t.best_ms[s] < t.best_ms[best])) best = s;
      return {best < 0 ? 0 : best};
    }
    ++t.issued[next];
    Trial trial{next, event(), event()};
    t.pending.push_back(trial);
    return {next, trial.start, trial.stop};
  }
};

Tuner& tuner() {
  static Tuner* t = new Tuner;  // kept past exit: its events belong to a context torn down by then
  return *t;
}

}  // namespace

CudaRangeTrial cuda_range_trial(const void* kernel, const std::string& label, const std::int64_t (&extent)[3],
                                int device) {
  const LaunchShapeSetting& setting = launch_shape_setting_state();
  if (!setting.error.empty()) throw launch_error(setting.error);
  if (setting.shape >= 0) return {setting.shape};
  return tuner().trial(Key{kernel, extent[0], extent[1], extent[2], device}, label);
}

}  // namespace kapi::detail
