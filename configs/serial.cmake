# SPDX-License-Identifier: Apache-2.0
# Kokkos build options for the 'serial' configuration.
set(Kokkos_ENABLE_SERIAL ON CACHE BOOL "")
