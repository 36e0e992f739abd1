// SPDX-License-Identifier: Apache-2.0
// The reduce variants' instances that reduce.hpp declares extern (kapi_apps/instances.hpp).
#define REDUCE_COMPILING_INSTANCES
#include <reduce/reduce.hpp>

namespace reduce {
KAPI_APPS_DEFINE_INSTANCES(REDUCE_INSTANCES)
}  // namespace reduce
