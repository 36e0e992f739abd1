// SPDX-License-Identifier: Apache-2.0
// The matmul variants' instances that matmul.hpp declares extern (kapi_apps/instances.hpp).
#define MATMUL_COMPILING_INSTANCES
#include <matmul/matmul.hpp>

namespace matmul {
KAPI_APPS_DEFINE_INSTANCES(MATMUL_INSTANCES)
}  // namespace matmul
