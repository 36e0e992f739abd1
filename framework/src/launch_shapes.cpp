// SPDX-License-Identifier: Apache-2.0
#include <cstdlib>
#include <mutex>
#include <utility>

#include <kapi/detail/launch_shape_setting.hpp>

#include "environment.hpp"

namespace kapi::detail {

LaunchShapeSetting parse_launch_shape_setting(const char* text) {
  LaunchShapeSetting s;
  const std::string value = text;
  if (value == "tuned") return s;
  for (int i = 0; i < cuda_range_shape_count; ++i)
    if (value == cuda_range_shape_names[i]) {
      s.shape = i;
      return s;
    }
  s.error = "KAPI_CUDA_RANGE_SHAPE='" + value + "' is not a launch shape; give 'tuned' (each kernel's shape timed at " +
            "its first launches)";
  for (const char* name : cuda_range_shape_names) s.error += std::string(", '") + name + "'";
  return s;
}

const LaunchShapeSetting& launch_shape_setting_state() {
  static const LaunchShapeSetting setting =
      setting_from_environment<LaunchShapeSetting>("KAPI_CUDA_RANGE_SHAPE", parse_launch_shape_setting);
  return setting;
}

namespace {
struct Choices {
  std::mutex mutex;
  std::vector<LaunchShapeChoice> list;
};
Choices& choices() {
  static Choices* c = new Choices;  // kept past exit: a late launch may still record
  return *c;
}
}  // namespace

void record_launch_shape_choice(LaunchShapeChoice choice) {
  Choices& c = choices();
  const std::lock_guard<std::mutex> lock(c.mutex);
  c.list.push_back(std::move(choice));
}

}  // namespace kapi::detail

namespace kapi {

std::vector<LaunchShapeChoice> launch_shape_choices() {
  auto& c = detail::choices();
  const std::lock_guard<std::mutex> lock(c.mutex);
  return c.list;
}

std::string launch_shape_setting() {
  const auto& s = detail::launch_shape_setting_state();
  return s.shape < 0 ? "tuned" : detail::cuda_range_shape_names[s.shape];
}

}  // namespace kapi
