// SPDX-License-Identifier: Apache-2.0
#pragma once
// SYCL 2020 memory-model enumerations, shared by barriers, fences and atomics.

namespace kapi {

enum class MemoryOrder { relaxed, acquire, release, acq_rel, seq_cst };
enum class MemoryScope { work_item, sub_group, work_group, device, system };
enum class AddressSpace { global, local, generic };

}  // namespace kapi
