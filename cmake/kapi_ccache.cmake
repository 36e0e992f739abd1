# SPDX-License-Identifier: Apache-2.0
# Compiles through ccache when it is installed (setup installs it): a fresh clone, the
# scaffold test's copy of the tree and every configuration recompile only what changed.
# CCACHE_BASEDIR keeps the cache independent of where the tree is checked out.
# -DKAPI_CCACHE=OFF turns it off; a launcher you set yourself is kept.
#
# Device compilers go through ccache's depend mode: the key is the command line, the
# compiler's --version and the content of every file in the compiler's own dependency list
# (-MD, which CMake passes). ccache does not recognise nvcc_wrapper or hipcc, and hashing
# their preprocessed output would miss code under __CUDA_ARCH__ / __HIP_DEVICE_COMPILE__,
# which only the device passes see; whole included files cover it.
option(KAPI_CCACHE "Compile through ccache when it is installed" ON)
if(KAPI_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  find_program(KAPI_CCACHE_PROGRAM ccache)
  if(KAPI_CCACHE_PROGRAM)
    # (pch_defines, time_macros: what ccache needs to cache units that use a precompiled
    # header, as the tests do on host builds)
    set(kapi_ccache_env CCACHE_BASEDIR=${PROJECT_SOURCE_DIR} CCACHE_SLOPPINESS=pch_defines,time_macros)
    if(CMAKE_CXX_COMPILER MATCHES "nvcc_wrapper|hipcc")
      list(APPEND kapi_ccache_env CCACHE_DEPEND=1 CCACHE_COMPILERTYPE=gcc "CCACHE_COMPILERCHECK=%compiler% --version")
    endif()
    set(CMAKE_CXX_COMPILER_LAUNCHER ${CMAKE_COMMAND} -E env ${kapi_ccache_env} ${KAPI_CCACHE_PROGRAM})
  endif()
endif()
