// SPDX-License-Identifier: Apache-2.0
#pragma once
// launch_error_of(f): the message of the kapi::launch_error that f() throws, "" if it
// throws none (other exceptions pass through), for EXPECT_THAT(..., HasSubstr(...)).
#include <kapi/errors.hpp>

#include <string>

namespace kapi_test {

template <class F>
std::string launch_error_of(F&& f) {
  try {
    f();
  } catch (const kapi::launch_error& e) {
    return e.what();
  }
  return "";
}

}  // namespace kapi_test
