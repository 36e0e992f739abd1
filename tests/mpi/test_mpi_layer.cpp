// SPDX-License-Identifier: Apache-2.0
// The MPI layer on whatever number of ranks mpirun starts (the suite runs 1 to 4):
// communicators, the device pick, blocks and Cartesian grids, View transfers from every
// execution space's memory (staged and direct), ordered reductions, halo exchange, and
// MPI errors as exceptions naming the rank and the call.
#include <gtest/gtest.h>

#include <kapi/mpi.hpp>

#include <cmath>
#include <cstdlib>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "../execution_spaces.hpp"
#include "overlap_boxes.hpp"  // apps/mpi

namespace {

using kapi::mpi::Communicator;

TEST(MpiCommunicator, RanksAndNodeRanks) {
  Communicator world;
  int rank = -1, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  EXPECT_EQ(world.rank(), rank);
  EXPECT_EQ(world.size(), size);
  EXPECT_GE(world.node_rank(), 0);
  EXPECT_LT(world.node_rank(), world.node_size());
  EXPECT_LE(world.node_size(), world.size());
  // Every node-local rank is taken once: gather (node size, node rank) pairs per node.
  const auto all = kapi::mpi::all_gather(world, std::vector<int>{world.node_rank()});
  ASSERT_EQ(int(all.size()), size);
  if (world.node_size() == world.size()) {  // one node (CI, a 2-GPU machine): 0 .. size-1
    std::vector<int> seen(std::size_t(size), 0);
    for (int r : all) ++seen[std::size_t(r)];
    for (int s : seen) EXPECT_EQ(s, 1);
  }
}

// MPI counts are ints: a message of more MPI elements is refused, never wrapped (all_gather
// converted its size with int(size) * scale, which wrapped past 2^31 bytes).
TEST(MpiDatatype, MessageCountsAnIntCannotHoldAreRefused) {
  using kapi::mpi::detail::message_count;
  const std::size_t int_max = std::size_t(std::numeric_limits<int>::max());
  EXPECT_EQ(message_count(0, 1), 0);
  EXPECT_EQ(message_count(int_max, 1), std::numeric_limits<int>::max());
  EXPECT_EQ(message_count(int_max + 1, 1), -1);
  EXPECT_EQ(message_count(int_max / 24, 24), int(int_max / 24 * 24));  // a 24-byte struct: MPI_BYTEs
  EXPECT_EQ(message_count(int_max / 24 + 1, 24), -1);
  EXPECT_EQ(message_count(std::size_t(1) << 31, 1 << 20), -1);  // 2^31 elements of 1 MiB
  EXPECT_EQ(message_count(std::numeric_limits<std::size_t>::max(), 2), -1);
}

// KAPI_MPI_TRANSPORT must be valid and the same on every rank, or every rank stops.
TEST(MpiEnvironment, TransportSettingsAreCheckedOnEveryRank) {
  Communicator world;
  using kapi::mpi::check_same_transport_setting;
  EXPECT_NO_THROW(check_same_transport_setting(world, ""));
  EXPECT_NO_THROW(check_same_transport_setting(world, "staged"));
  try {
    check_same_transport_setting(world, world.rank() == 0 ? "auto" : "fast");
    if (world.size() > 1) ADD_FAILURE() << "'fast' on the other ranks: expected an mpi_error";
  } catch (const kapi::mpi::mpi_error& e) {
    EXPECT_NE(std::string(e.what()).find("rank 1 has 'fast', which is not a transport"), std::string::npos) << e.what();
  }
  try {
    check_same_transport_setting(world, world.rank() == world.size() - 1 ? "staged" : "");
    if (world.size() > 1) ADD_FAILURE() << "staged on the last rank only: expected an mpi_error";
  } catch (const kapi::mpi::mpi_error& e) {
    EXPECT_NE(std::string(e.what()).find("every rank must move its data the same way"), std::string::npos) << e.what();
  }
  EXPECT_THROW(check_same_transport_setting(world, "ipc"), kapi::mpi::mpi_error);
}

TEST(MpiCommunicator, PickDeviceRoundRobin) {
  EXPECT_EQ(kapi::mpi::pick_device(0, 2), 0);
  EXPECT_EQ(kapi::mpi::pick_device(1, 2), 1);
  EXPECT_EQ(kapi::mpi::pick_device(2, 2), 0);  // oversubscribed: shares a device
  EXPECT_EQ(kapi::mpi::pick_device(7, 8), 7);
  EXPECT_EQ(kapi::mpi::pick_device(3, 0), 0);  // host backends: no device
  EXPECT_THROW(kapi::mpi::pick_device(-1, 2), kapi::mpi::mpi_error);
}

// A device build with a rank that sees no GPU stops on every rank, naming the ranks; host
// builds need none.
TEST(MpiEnvironment, ARankWithoutAGpuIsNamedOnDeviceBuilds) {
  using kapi::mpi::check_every_rank_has_a_device;
  EXPECT_NO_THROW(check_every_rank_has_a_device({2, 2, 1}, 0, true));
  EXPECT_NO_THROW(check_every_rank_has_a_device({0, 0}, 1, false));
  EXPECT_THROW(check_every_rank_has_a_device({1, 0}, 0, true), kapi::mpi::mpi_error);
  try {
    check_every_rank_has_a_device({4, 0, 4, 0}, 2, true);
    ADD_FAILURE() << "ranks 1 and 3 have no GPU: expected an mpi_error";
  } catch (const kapi::mpi::mpi_error& e) {
    EXPECT_NE(std::string(e.what()).find("ranks 1, 3 of 4 see no GPU"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("rank 2"), std::string::npos) << e.what();  // the reporting rank
  }
  // This process: a device build found a GPU for every rank, or the check had nothing to do.
  EXPECT_TRUE(!kapi::mpi::device_build || kapi::mpi::device_count() > 0);
}

TEST(MpiCommunicator, SplitKeepsKeyOrder) {
  Communicator world;
  // Reversed order in a split by parity: rank r has key -r.
  const auto half = world.split(world.rank() % 2, -world.rank());
  const int members = (world.size() + 1 - world.rank() % 2) / 2;
  EXPECT_EQ(half.size(), members);
  const auto ranks = kapi::mpi::all_gather(half, std::vector<int>{world.rank()});
  for (std::size_t i = 1; i < ranks.size(); ++i) EXPECT_GT(ranks[i - 1], ranks[i]);
}

TEST(MpiErrors, AFailedCallThrowsNamingRankAndCall) {
  Communicator world;
  Kokkos::View<double*, Kokkos::HostSpace> v("v", 4);
  try {
    kapi::mpi::send(world, v, world.size() + 3, 0);  // no such rank
    FAIL() << "sending to rank " << world.size() + 3 << " did not throw";
  } catch (const kapi::mpi::mpi_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("rank " + std::to_string(world.rank())), std::string::npos) << what;
    EXPECT_NE(what.find("MPI_Isend"), std::string::npos) << what;
    EXPECT_EQ(e.call(), "MPI_Isend");
    EXPECT_EQ(e.rank(), world.rank());
    EXPECT_NE(e.code(), MPI_SUCCESS);
  }
}

TEST(MpiErrors, NonContiguousViewsAreRefused) {
  Communicator world;
  Kokkos::View<double**, Kokkos::LayoutRight, Kokkos::HostSpace> m("m", 4, 4);
  auto column = Kokkos::subview(m, Kokkos::ALL, 1);
  try {
    kapi::mpi::send(world, column, world.rank(), 0);
    FAIL() << "a strided column was sent";
  } catch (const kapi::mpi::mpi_error& e) {
    EXPECT_NE(std::string(e.what()).find("not contiguous"), std::string::npos) << e.what();
  }
}

TEST(MpiBlocks, CoverEveryElementOnceForAnyCount) {
  for (std::size_t n : {0, 1, 7, 10, 1000003})
    for (int parts : {1, 2, 3, 4, 7}) {
      std::size_t next = 0, smallest = n, largest = 0;
      for (int p = 0; p < parts; ++p) {
        const auto b = kapi::mpi::block(n, parts, p);
        EXPECT_EQ(b.begin, next) << n << " over " << parts << ", part " << p;
        next += b.size;
        smallest = std::min(smallest, b.size);
        largest = std::max(largest, b.size);
      }
      EXPECT_EQ(next, n);
      EXPECT_LE(largest - smallest, 1u) << n << " over " << parts;
    }
  EXPECT_THROW(kapi::mpi::block(10, 3, 3), kapi::mpi::mpi_error);
}

TEST(MpiCartesian, GridNeighboursAndSubCommunicators) {
  Communicator world;
  kapi::mpi::CartesianGrid<2> grid(world);
  EXPECT_EQ(grid.dims()[0] * grid.dims()[1], world.size());
  const auto row = grid.along(1), column = grid.along(0);
  EXPECT_EQ(row.size(), grid.dims()[1]);
  EXPECT_EQ(column.size(), grid.dims()[0]);
  EXPECT_EQ(row.rank(), grid.coords()[1]);
  EXPECT_EQ(column.rank(), grid.coords()[0]);
  // Everyone's coordinates, gathered: the neighbours MPI names are the ranks one step away.
  const auto coords = kapi::mpi::all_gather(grid.comm(), std::vector<int>{grid.coords()[0], grid.coords()[1]});
  for (int d = 0; d < 2; ++d) {
    const auto n = grid.neighbours(d);
    for (int side = 0; side < 2; ++side) {
      const int want = grid.coords()[d] + (side ? 1 : -1);
      if (want < 0 || want >= grid.dims()[d]) {
        EXPECT_EQ(n[side], MPI_PROC_NULL);
        continue;
      }
      ASSERT_NE(n[side], MPI_PROC_NULL);
      EXPECT_EQ(coords[std::size_t(2 * n[side] + d)], want);
      EXPECT_EQ(coords[std::size_t(2 * n[side] + 1 - d)], grid.coords()[1 - d]);
    }
  }
}

TEST(MpiCartesian, BadExtentsAreRefused) {
  Communicator world;
  EXPECT_THROW(kapi::mpi::CartesianGrid<2>(world, {world.size() + 1, 0}), kapi::mpi::mpi_error);
  EXPECT_THROW(kapi::mpi::CartesianGrid<3>(world, {-1, 0, 0}), kapi::mpi::mpi_error);
  // A product of extents beyond any long long (undefined behaviour under UBSan before the check).
  constexpr int huge = std::numeric_limits<int>::max();
  EXPECT_THROW(kapi::mpi::CartesianGrid<3>(world, {huge, huge, huge}), kapi::mpi::mpi_error);
}

TEST(MpiOrderedReduce, CombinesInRankOrder) {
  Communicator world;
  // Values whose float sum depends on the order: 2^24 first, then ones that round away
  // when added to it one at a time.
  const float mine = world.rank() == 0 ? 16777216.0f : 1.0f;
  const float got = kapi::mpi::ordered_reduce(world, mine, [](float a, float b) { return a + b; });
  float want = 16777216.0f;
  for (int r = 1; r < world.size(); ++r) want = want + 1.0f;
  EXPECT_EQ(got, want);
  const auto sum = kapi::mpi::ordered_reduce(world, std::int64_t(world.rank() + 1), std::plus<std::int64_t>());
  EXPECT_EQ(sum, std::int64_t(world.size()) * (world.size() + 1) / 2);
}

template <class Space>
struct MpiTransfer : ::testing::Test {};
KAPI_TYPED_TEST_SUITE(MpiTransfer);

/// The value rank r puts at index i: distinct across ranks and indices.
double pattern(int r, std::size_t i) { return 1000.0 * r + double(i) + 0.25; }

template <class Space>
void ring(kapi::mpi::Staging staging) {
  Communicator world;
  const std::size_t n = 1013;
  const int right = (world.rank() + 1) % world.size(), left = (world.rank() + world.size() - 1) % world.size();
  auto out = kapi_test::make_view<double, Space>("out", n, [&](std::size_t i) { return pattern(world.rank(), i); });
  Kokkos::View<double*, typename Space::memory_space> in("in", n);
  kapi::mpi::Buffer<decltype(out)> send(out, staging);
  kapi::mpi::Buffer<decltype(in)> recv(in, staging);
  if (staging == kapi::mpi::Staging::always) {
    EXPECT_TRUE(send.staged() && recv.staged());
  }
  auto r = recv.irecv(world, left, 7);
  auto s = send.isend(world, right, 7);
  s.wait();
  r.wait();
  const auto h = kapi_test::to_host(in);
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(h(i), pattern(left, i)) << "at " << i;
}

TYPED_TEST(MpiTransfer, RingOfViews) { ring<TypeParam>(kapi::mpi::Staging::automatic); }

// How a transfer travels: host memory goes to MPI; device memory to MPI where it reads it,
// GPU to GPU between ranks of one node where it cannot, through the host when asked
// (KAPI_MPI_TRANSPORT=staged: ctest runs this binary with it too) or between nodes.
TYPED_TEST(MpiTransfer, TheTransportFollowsTheMemoryTheLibraryAndTheSetting) {
  using kapi::mpi::Transport;
  Communicator world;
  Kokkos::View<double*, typename TypeParam::memory_space> v("v", 8);
  kapi::mpi::Buffer<decltype(v)> automatic(v), always(v, kapi::mpi::Staging::always);
  const int right = (world.rank() + 1) % world.size();
  EXPECT_EQ(always.transport(world, right), Transport::staged);
  const bool host = kapi_test::is_host_space<TypeParam>;
  Transport want = Transport::host_memory;
  if (!host) {
    const char* setting = std::getenv("KAPI_MPI_TRANSPORT");
    const bool staged = setting && std::string(setting) == "staged";
    if (!staged && kapi::mpi::device_aware())
      want = Transport::device_aware_mpi;
    else if (!staged && kapi::mpi::peer_copies_built && world.same_node(right))
      want = Transport::peer_copies;
    else
      want = Transport::staged;
  }
  EXPECT_EQ(automatic.transport(world, right), want) << kapi::mpi::transport_name(automatic.transport(world, right));
  EXPECT_EQ(automatic.transport(world, world.rank()), want);  // a rank and itself share a node
  EXPECT_EQ(kapi::mpi::transport<typename TypeParam::memory_space>(world, right), want);  // any View, no Buffer
  if (world.one_node()) {
    EXPECT_EQ(automatic.transport(world), want);
    EXPECT_EQ(kapi::mpi::describe_transport<typename TypeParam::memory_space>(world), kapi::mpi::transport_name(want));
  }
}

// Waiting for the receive before the send, as MPI allows: a peer transfer's sender copies
// while its rank waits for anything (here, for its own receive).
TYPED_TEST(MpiTransfer, RingWaitingForTheReceiveFirst) {
  Communicator world;
  const std::size_t n = 4099;
  const int right = (world.rank() + 1) % world.size(), left = (world.rank() + world.size() - 1) % world.size();
  auto out = kapi_test::make_view<double, TypeParam>("out", n, [&](std::size_t i) { return pattern(world.rank(), i); });
  Kokkos::View<double*, typename TypeParam::memory_space> in("in", n);
  kapi::mpi::Buffer<decltype(out)> send(out);
  kapi::mpi::Buffer<decltype(in)> recv(in);
  for (int round = 0; round < 3; ++round) {  // the same Buffers again: mappings reused, events re-recorded
    auto r = recv.irecv(world, left, 11, n - std::size_t(round));
    auto s = send.isend(world, right, 11, n - std::size_t(round));
    r.wait();
    s.wait();
    const auto h = kapi_test::to_host(in);
    for (std::size_t i = 0; i < n - std::size_t(round); ++i)
      ASSERT_EQ(h(i), pattern(left, i)) << "round " << round << " at " << i;
  }
}

// Two sends with one tag to one rank land in its two receives in posting order, whichever
// the sender waits for first (a peer transfer's second copy may run first; its done must
// not overtake the first one's, or the first receive would return before its data).
TYPED_TEST(MpiTransfer, SendsWithOneTagArriveInPostingOrder) {
  Communicator world;
  const std::size_t n = std::size_t(1) << 20;
  const int right = (world.rank() + 1) % world.size(), left = (world.rank() + world.size() - 1) % world.size();
  auto first =
      kapi_test::make_view<double, TypeParam>("first", n, [&](std::size_t i) { return pattern(world.rank(), i); });
  auto second =
      kapi_test::make_view<double, TypeParam>("second", n, [&](std::size_t i) { return -pattern(world.rank(), i); });
  Kokkos::View<double*, typename TypeParam::memory_space> in_first("in first", n), in_second("in second", n);
  kapi::mpi::Buffer<decltype(first)> s1(first), s2(second);
  kapi::mpi::Buffer<decltype(in_first)> r1(in_first), r2(in_second);
  auto got_first = r1.irecv(world, left, 13);
  auto got_second = r2.irecv(world, left, 13);
  auto sent_first = s1.isend(world, right, 13);
  auto sent_second = s2.isend(world, right, 13);
  sent_second.wait();
  got_first.wait();
  const auto h1 = kapi_test::to_host(in_first);
  for (std::size_t i = 0; i < n; i += 4099) ASSERT_EQ(h1(i), pattern(left, i)) << "first receive at " << i;
  sent_first.wait();
  got_second.wait();
  const auto h2 = kapi_test::to_host(in_second);
  for (std::size_t i = 0; i < n; i += 4099) ASSERT_EQ(h2(i), -pattern(left, i)) << "second receive at " << i;
}

// Broadcasts from every root in turn, all posted before the first wait (as the distributed
// matmul posts its next panels), into two buffers used alternately.
TYPED_TEST(MpiTransfer, BroadcastsFromEveryRootPostedAhead) {
  Communicator world;
  const std::size_t n = 777;
  using V = Kokkos::View<double*, typename TypeParam::memory_space>;
  std::vector<V> views;
  std::vector<kapi::mpi::Buffer<V>> buffers;
  for (int root = 0; root < world.size(); ++root)
    views.push_back(kapi_test::make_view<double, TypeParam>(
        "b", n, [&](std::size_t i) { return world.rank() == root ? pattern(root, i) : -1.0; }));
  for (auto& v : views) buffers.emplace_back(v);
  std::vector<kapi::mpi::Request> requests;
  for (int root = 0; root < world.size(); ++root)
    requests.push_back(buffers[std::size_t(root)].ibroadcast(world, root));
  kapi::mpi::wait_all(requests);
  for (int root = 0; root < world.size(); ++root) {
    const auto h = kapi_test::to_host(views[std::size_t(root)]);
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(h(i), pattern(root, i)) << "root " << root << " at " << i;
  }
}

// A send larger than the receive is an error on both ranks of a peer transfer (and on the
// receiver under MPI), never a write past the receiver's View.
TYPED_TEST(MpiTransfer, ASendLargerThanItsReceiveIsAnError) {
  Communicator world;
  Kokkos::View<double*, typename TypeParam::memory_space> out("out", 64), in("in", 64);
  kapi::mpi::Buffer<decltype(out)> send(out);
  kapi::mpi::Buffer<decltype(in)> recv(in);
  if (send.transport(world, world.rank()) != kapi::mpi::Transport::peer_copies)
    GTEST_SKIP() << "MPI reports truncation itself: " << kapi::mpi::transport_name(send.transport(world, world.rank()));
  auto r = recv.irecv(world, world.rank(), 12, 16);
  auto s = send.isend(world, world.rank(), 12, 32);
  try {
    r.wait();
    ADD_FAILURE() << "32 elements into a receive of 16: expected an mpi_error";
  } catch (const kapi::mpi::mpi_error& e) {
    EXPECT_NE(std::string(e.what()).find("256 bytes, more than the 128"), std::string::npos) << e.what();
  }
  EXPECT_THROW(s.wait(), kapi::mpi::mpi_error);
  if (!kapi_test::is_host_space<TypeParam>) {
    EXPECT_THROW(recv.irecv(world, MPI_ANY_SOURCE, 12), kapi::mpi::mpi_error);  // the sender must be known
  }
}
TYPED_TEST(MpiTransfer, RingOfViewsThroughStaging) { ring<TypeParam>(kapi::mpi::Staging::always); }

TYPED_TEST(MpiTransfer, BroadcastFromTheLastRank) {
  Communicator world;
  const int root = world.size() - 1;
  Kokkos::View<float**, Kokkos::LayoutRight, typename TypeParam::memory_space> m("m", 17, 5);
  if (world.rank() == root) {
    auto h = Kokkos::create_mirror_view(m);
    for (std::size_t i = 0; i < 17; ++i)
      for (std::size_t j = 0; j < 5; ++j) h(i, j) = float(i * 5 + j) + 0.5f;
    Kokkos::deep_copy(m, h);
  }
  kapi::mpi::broadcast(world, m, root);
  const auto h = kapi_test::to_host(m);
  for (std::size_t i = 0; i < 17; ++i)
    for (std::size_t j = 0; j < 5; ++j) ASSERT_EQ(h(i, j), float(i * 5 + j) + 0.5f);
}

/// A global grid point's value: distinct everywhere.
KOKKOS_INLINE_FUNCTION double global_value(std::size_t i, std::size_t j, std::size_t k) {
  return double(i) * 1e6 + double(j) * 1e3 + double(k);
}

template <class Space>
void halo(bool periodic) {
  Communicator world;
  kapi::mpi::CartesianGrid<3> grid(world, {}, {periodic, periodic, periodic});
  const std::size_t n[3] = {11, 7, 5};  // global interior, not divisible by 2, 3 or 4 in every dimension
  kapi::mpi::Block b[3];
  for (int d = 0; d < 3; ++d) b[d] = grid.block_of(d, n[d]);
  if (b[0].size == 0 || b[1].size == 0 || b[2].size == 0) GTEST_SKIP() << "a rank without cells";
  using Block = typename kapi::mpi::HaloExchange<double, typename Space::memory_space>::Block;
  Block u("u", b[0].size + 2, b[1].size + 2, b[2].size + 2);
  auto h = Kokkos::create_mirror_view(u);
  const double sentinel = -7.0;
  for (std::size_t i = 0; i < h.extent(0); ++i)
    for (std::size_t j = 0; j < h.extent(1); ++j)
      for (std::size_t k = 0; k < h.extent(2); ++k) {
        const bool interior = i > 0 && j > 0 && k > 0 && i <= b[0].size && j <= b[1].size && k <= b[2].size;
        h(i, j, k) = interior ? global_value(b[0].begin + i - 1, b[1].begin + j - 1, b[2].begin + k - 1) : sentinel;
      }
  Kokkos::deep_copy(u, h);
  kapi::mpi::HaloExchange<double, typename Space::memory_space> exchange(grid, u);
  // A periodic grid's rank neighbours itself; an open one of several ranks has someone along each split dimension.
  EXPECT_EQ(exchange.has_neighbours(), periodic || world.size() > 1);
  EXPECT_THROW(exchange.has_neighbour(3, 0), std::invalid_argument);
  EXPECT_THROW(exchange.has_neighbour(0, 2), std::invalid_argument);
  exchange.exchange(Space());
  Kokkos::deep_copy(h, u);
  // Each face's ghost cell (one coordinate outside, the others inside) holds the global
  // neighbour's value, wrapped when periodic; without a neighbour it is untouched.
  for (int d = 0; d < 3; ++d)
    for (int side = 0; side < 2; ++side) {
      const std::size_t ghost = side ? b[d].size + 1 : 0;
      const long long global = side ? (long long)(b[d].begin + b[d].size) : (long long)b[d].begin - 1;
      const bool outside = global < 0 || global >= (long long)n[d];
      EXPECT_EQ(exchange.has_neighbour(d, side), periodic || !outside) << "dimension " << d << " side " << side;
      const std::size_t wrapped = std::size_t((global + (long long)n[d]) % (long long)n[d]);
      const std::size_t e1 = b[(d + 1) % 3].size, e2 = b[(d + 2) % 3].size;
      for (std::size_t p = 1; p <= e1; ++p)
        for (std::size_t q = 1; q <= e2; ++q) {
          std::size_t at[3], g[3];
          at[d] = ghost;
          at[(d + 1) % 3] = p;
          at[(d + 2) % 3] = q;
          g[d] = wrapped;
          g[(d + 1) % 3] = b[(d + 1) % 3].begin + p - 1;
          g[(d + 2) % 3] = b[(d + 2) % 3].begin + q - 1;
          const double want = outside && !periodic ? sentinel : global_value(g[0], g[1], g[2]);
          ASSERT_EQ(h(at[0], at[1], at[2]), want) << "dimension " << d << (side ? " upper" : " lower") << " face at ("
                                                  << at[0] << "," << at[1] << "," << at[2] << ")";
        }
    }
}

// kapi-mpi heat3d's overlap: every interior point in exactly one box; one slab, one plane
// thick, per face with a neighbour, and none for the others (the step launched six slabs
// whatever the grid before d02364c: a rank of a 2 x 1 x 1 grid waited for all six).
TEST(MpiHeat3dOverlap, OneSlabPerExchangedFaceAndEveryPointOnce) {
  const std::size_t n[3] = {3, 4, 5};
  for (int faces = 0; faces < 64; ++faces) {
    const auto has = [&](int d, int side) { return (faces >> (2 * d + side) & 1) != 0; };
    const auto b = mpi_apps::overlap_boxes(n, has);
    std::vector<int> hits((n[0] + 2) * (n[1] + 2) * (n[2] + 2), 0);
    std::vector<mpi_apps::Box> boxes = b.slabs;
    boxes.push_back(b.inner);
    for (const auto& x : boxes)
      for (std::size_t i = x[0][0]; i < x[1][0]; ++i)
        for (std::size_t j = x[0][1]; j < x[1][1]; ++j)
          for (std::size_t k = x[0][2]; k < x[1][2]; ++k) ++hits[(i * (n[1] + 2) + j) * (n[2] + 2) + k];
    for (std::size_t i = 0; i < n[0] + 2; ++i)
      for (std::size_t j = 0; j < n[1] + 2; ++j)
        for (std::size_t k = 0; k < n[2] + 2; ++k) {
          const bool interior = i >= 1 && i <= n[0] && j >= 1 && j <= n[1] && k >= 1 && k <= n[2];
          ASSERT_EQ(hits[(i * (n[1] + 2) + j) * (n[2] + 2) + k], interior ? 1 : 0)
              << "faces " << faces << " at (" << i << "," << j << "," << k << ")";
        }
    int exchanged = 0;
    for (int d = 0; d < 3; ++d)
      for (int side = 0; side < 2; ++side) {
        if (!has(d, side)) continue;
        ++exchanged;
        // The plane next to this face is in a slab, not in the inner box.
        const std::size_t plane = side ? n[d] : 1;
        EXPECT_FALSE(b.inner[0][d] <= plane && plane < b.inner[1][d]) << "faces " << faces << ", dimension " << d;
      }
    EXPECT_EQ(int(b.slabs.size()), exchanged) << "faces " << faces;  // every n[d] >= 2: no plane is shared
    for (const auto& x : b.slabs) {
      int thin = 0;
      for (int d = 0; d < 3; ++d) thin += x[1][d] - x[0][d] == 1;
      EXPECT_GE(thin, 1) << "faces " << faces << ": a slab is one plane thick";
    }
  }
  // A plane that the two faces of a dimension share (n = 1 there) is one slab.
  const std::size_t flat[3] = {1, 4, 4};
  EXPECT_EQ(mpi_apps::overlap_boxes(flat, [](int d, int) { return d == 0; }).slabs.size(), 1u);
}

TYPED_TEST(MpiTransfer, HaloExchangeOpenEdges) { halo<TypeParam>(false); }
TYPED_TEST(MpiTransfer, HaloExchangePeriodic) { halo<TypeParam>(true); }

}  // namespace
