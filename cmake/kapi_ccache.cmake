# Compiles through ccache when it is installed (setup installs it): a fresh clone, the
# scaffold test's copy of the tree and every configuration recompile only what changed.
# CCACHE_BASEDIR keeps the cache independent of where the tree is checked out.
# -DKAPI_CCACHE=OFF turns it off; a launcher you set yourself is kept. nvcc_wrapper builds
# compile directly (ccache does not recognise the wrapper as nvcc).
option(KAPI_CCACHE "Compile through ccache when it is installed" ON)
if(KAPI_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER AND NOT CMAKE_CXX_COMPILER MATCHES "nvcc_wrapper")
  find_program(KAPI_CCACHE_PROGRAM ccache)
  if(KAPI_CCACHE_PROGRAM)
    set(CMAKE_CXX_COMPILER_LAUNCHER ${CMAKE_COMMAND} -E env CCACHE_BASEDIR=${PROJECT_SOURCE_DIR} ${KAPI_CCACHE_PROGRAM})
  endif()
endif()
