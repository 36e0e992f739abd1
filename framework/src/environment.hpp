// SPDX-License-Identifier: Apache-2.0
#pragma once
// The runtime's settings from environment variables (not installed).
#include <cstdlib>

namespace kapi::detail {

/// The setting `parse` makes of environment variable `name`, or a default one where it is
/// unset. Callers keep it in a function-local static: the environment is read once.
template <class Setting, class Parse>
Setting setting_from_environment(const char* name, const Parse& parse) {
  const char* text = std::getenv(name);
  return text ? parse(text) : Setting{};
}

}  // namespace kapi::detail
