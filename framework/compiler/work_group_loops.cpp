// SPDX-License-Identifier: Apache-2.0
// kapi_work_group_loops: a Clang pass plugin that compiles host nd-range kernels with
// work-group barriers into loops over the group's work-items (continuation-based
// synchronisation, Karrenberg & Hack, CC 2012), so that the work between two barriers is a
// loop the compiler can vectorise instead of one context switch per work-item.
//
// What it rewrites: a kernel's loop-form function (kapi/host/detail/launcher.hpp), the
// function that calls kapi_host_loops_available(group), written for one work-item whose id
// is kapi_host_work_item(group). The rewrite:
// - inlines every call that reaches a marker (kapi/host/detail/work_group_loops.hpp), so
//   that the barriers are in the function itself (also at -O0/-O1);
// - splits it at the barriers into regions: the blocks reached from the entry or from a
//   barrier without passing another one. Each region is cloned into a loop over the
//   group's work-items (regions may share blocks: a barrier in a loop), the work-item id
//   replaced by the loop's counter; where the kernel asks for its ids along the group's
//   local shape (kapi_host_local_id: an N-d range seen as 3-d), a nest of three loops over
//   it, those ids its counters (no divisions of the linear id in the innermost loop);
// - keeps per work-item only what must be: a value defined before a barrier and used after
//   it is recomputed when it is a pure function of the id, the arguments and memory the
//   kernel never writes (once before the region's loop where it does not depend on the id),
//   is kept once per group when a uniformity analysis shows it is the same for every
//   work-item (a loop counter around barriers), and is stored in an array indexed by the
//   work-item otherwise; the body's private memory (allocas) is per work-item too. All of it
//   lives in the engine's per-thread storage (kapi_host_loop_storage), never on the stack;
// - dispatches: after a region, every work-item must have left it at the same barrier,
//   which names the next region: where a region has several exits and the analysis cannot
//   show its branches to them are uniform, the loop takes the smallest and the largest exit
//   over the group and a mismatch is reported by kapi_host_loops_diverged.
// What it leaves on fibers (the function keeps returning at kapi_host_loops_available):
// a barrier under control flow that depends on the work-item (a conservative taint
// analysis), a call that cannot be inlined and might reach a barrier, a barrier reached
// while handling an exception, dynamic stack allocation, and kernels without barriers
// (the engine already runs those as a plain loop). Every kernel gets a remark:
// -Rpass=kapi-work-group-loops / -Rpass-missed=kapi-work-group-loops.
// Written from LLVM's documentation and the paper; no code of other implementations.
#include <llvm/ADT/BitVector.h>
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/AliasAnalysis.h>
#include <llvm/Analysis/CFG.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/OptimizationRemarkEmitter.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Passes/PassPlugin.h>
#include <llvm/Transforms/InstCombine/InstCombine.h>
#include <llvm/Transforms/Scalar/EarlyCSE.h>
#include <llvm/Transforms/Scalar/LICM.h>
#include <llvm/Transforms/Scalar/LoopPassManager.h>
#include <llvm/Transforms/Scalar/LoopRotation.h>
#include <llvm/Transforms/Scalar/SROA.h>
#include <llvm/Transforms/Scalar/SimpleLoopUnswitch.h>
#include <llvm/Transforms/Scalar/SimplifyCFG.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/Local.h>
#include <llvm/Transforms/Utils/Mem2Reg.h>
#include <llvm/Transforms/Utils/ValueMapper.h>
#include <llvm/Transforms/Vectorize/LoopVectorize.h>

#include <algorithm>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

using namespace llvm;

namespace {

constexpr const char* pass_name = "kapi-work-group-loops";
constexpr const char* done_attribute = "kapi-work-group-loops-done";
// The markers (work_group_loops.hpp) and the entry points the rewritten code calls.
constexpr const char* barrier_name = "kapi_host_group_barrier";
constexpr const char* work_item_name = "kapi_host_work_item";
constexpr const char* local_id_name = "kapi_host_local_id";
constexpr const char* barriers_passed_name = "kapi_host_barriers_passed";
constexpr const char* available_name = "kapi_host_loops_available";
constexpr const char* enter_name = "kapi_host_loops_enter";
constexpr const char* extent_name = "kapi_host_loops_extent";
constexpr const char* storage_name = "kapi_host_loop_storage";
constexpr const char* item_name = "kapi_host_loops_item";
constexpr const char* diverged_name = "kapi_host_loops_diverged";

bool calls(const Instruction& i, const char* name) {
  const auto* call = dyn_cast<CallBase>(&i);
  const Function* f = call ? call->getCalledFunction() : nullptr;
  return f && f->getName() == name;
}

// Whether i may change memory a load could read: lifetime markers, assumptions and scope
// declarations look like writes to LLVM but change no value (counted, a string built on an
// error path under a work-item branch made the kernel's arguments look work-item dependent).
bool writes_memory(const Instruction& i) {
  if (!i.mayWriteToMemory() || calls(i, barrier_name) || calls(i, available_name)) return false;
  if (const auto* intr = dyn_cast<IntrinsicInst>(&i)) switch (intr->getIntrinsicID()) {
      case Intrinsic::lifetime_start:
      case Intrinsic::lifetime_end:
      case Intrinsic::assume:
      case Intrinsic::experimental_noalias_scope_decl:
      case Intrinsic::invariant_start:
      case Intrinsic::invariant_end:
      case Intrinsic::sideeffect:
      case Intrinsic::pseudoprobe:
      case Intrinsic::dbg_declare:
      case Intrinsic::dbg_value:
      case Intrinsic::dbg_label:
      case Intrinsic::dbg_assign:
        return false;
      default:
        break;
    }
  return true;
}

bool is_marker(const Function* f) {
  if (!f) return false;
  const StringRef n = f->getName();
  return n == barrier_name || n == work_item_name || n == local_id_name || n == barriers_passed_name ||
         n == available_name;
}

bool has_loop_form(const Function& f) {
  const Function* available = f.getParent()->getFunction(available_name);
  if (!available || f.hasFnAttribute(done_attribute) || f.isDeclaration()) return false;
  for (const User* u : available->users())
    if (const auto* call = dyn_cast<CallBase>(u))
      if (call->getFunction() == &f) return true;
  return false;
}

// Declarations a kernel may call that cannot reach a barrier: the C and C++ runtimes,
// libraries' math, kapi's and Kokkos' compiled parts. Any other unseen function might
// (a group_barrier in another translation unit): such kernels stay on fibers.
bool known_barrier_free(const Function& f, const TargetLibraryInfo& tli) {
  if (f.isIntrinsic()) return true;
  LibFunc lib;
  if (tli.getLibFunc(f, lib)) return true;
  const StringRef n = f.getName();
  for (const char* prefix :
       {"_ZN4kapi",    "_ZNK4kapi", "_ZSt",     "_ZNSt",  "_ZNKSt",     "__cxa_", "_Unwind_", "_ZN6Kokkos",
        "_ZNK6Kokkos", "__kmpc_",   "omp_",     "__gxx_", "kapi_host_", "_Znw",   "_Zna",     "_Zdl",
        "_Zda",        "__clang_",  "__assert", "abort",  "__asan",     "__ubsan"})
    if (n.startswith(prefix)) return true;
  // std's abbreviated names (std::allocator as Sa, std::basic_string as Sb, ...)
  for (const char* prefix : {"_ZNS", "_ZNKS"})
    if (StringRef rest = n; rest.consume_front(prefix) && !rest.empty() && rest.front() >= 'a' && rest.front() <= 'z')
      return true;
  return false;
}

// Whether calling f may reach a marker (memoised; recursion counts as no).
class MarkerReach {
 public:
  bool reaches(Function* f) {
    if (!f || f->isDeclaration()) return is_marker(f);
    auto [it, fresh] = memo_.try_emplace(f, false);
    if (!fresh) return it->second;
    bool r = false;
    for (Instruction& i : instructions(*f))
      if (auto* call = dyn_cast<CallBase>(&i))
        if (reaches(call->getCalledFunction())) {
          r = true;
          break;
        }
    memo_[f] = r;
    return r;
  }

 private:
  DenseMap<Function*, bool> memo_;
};

// Inlines every call of f that reaches a marker; returns why not, or "". With `all`, other
// calls with a body too while f stays under a size budget: at -O0 nothing was inlined into
// the kernel, so its id queries, View accessors and captures stay calls that take the
// work-item's locals by address, no local reaches a register, and the uniformity analysis
// sees every loop counter as written through memory the work-items share.
std::string inline_marker_calls(Function& f, const TargetLibraryInfo& tli, bool all) {
  constexpr unsigned budget = 20000;  // instructions; what -O1's inliner would leave is far less
  MarkerReach reach;
  SmallPtrSet<CallBase*, 8> kept;  // barrier-free calls InlineFunction refused
  for (int round = 0; round < 64; ++round) {
    unsigned size = 0;
    for (BasicBlock& b : f) size += unsigned(b.size());
    SmallVector<CallBase*, 16> todo;
    for (Instruction& i : instructions(f)) {
      auto* call = dyn_cast<CallBase>(&i);
      if (!call) continue;
      Function* callee = call->getCalledFunction();
      if (!callee) {
        if (call->isInlineAsm()) continue;
        return "an indirect call, which might reach a barrier";
      }
      if (is_marker(callee)) continue;
      if (callee->isDeclaration()) {
        if (!known_barrier_free(*callee, tli))
          return "a call to '" + callee->getName().str() + "', compiled elsewhere, which might reach a barrier";
        continue;
      }
      if (reach.reaches(callee) || (all && size < budget && callee != &f && !kept.count(call))) todo.push_back(call);
    }
    if (todo.empty()) return "";
    for (CallBase* call : todo) {
      InlineFunctionInfo info;
      Function* callee = call->getCalledFunction();
      if (InlineFunction(*call, info).isSuccess()) continue;
      if (reach.reaches(callee))
        return "a call to '" + callee->getName().str() + "', which reaches a barrier, could not be inlined";
      kept.insert(call);
    }
  }
  for (Instruction& i : instructions(f))
    if (auto* call = dyn_cast<CallBase>(&i);
        call && !is_marker(call->getCalledFunction()) && reach.reaches(call->getCalledFunction()))
      return "calls that reach a barrier nest too deeply to inline";
  return "";
}

// The kernel's arguments: memory at constant offsets from the loop form's closure (an
// argument other than the group) or from a pointer stored there (the kernel object, the
// group's ids, the reductions' partials). The model makes them the launch's own: a kernel's
// Views, local memory, private memory and the engine's buffers never overlap them, so only
// writes to such memory itself can change them.
bool argument_memory(const Value* p, const Argument* group) {
  auto closure = [&](const Value* v) {
    const auto* a = dyn_cast<Argument>(v->stripInBoundsConstantOffsets());
    return a && a != group && a->getType()->isPointerTy();
  };
  const Value* base = p->stripInBoundsConstantOffsets();
  if (closure(base)) return true;
  const auto* load = dyn_cast<LoadInst>(base);
  return load && closure(load->getPointerOperand());
}

// Whether write `w` may change what `load` reads (the model of argument_memory on top of AA).
bool may_clobber(AAResults& aa, Instruction* w, const LoadInst* load, const Argument* group) {
  if (argument_memory(load->getPointerOperand(), group)) {
    if (const auto* store = dyn_cast<StoreInst>(w)) {
      if (!argument_memory(store->getPointerOperand(), group)) return false;
    } else if (const auto* mem = dyn_cast<MemIntrinsic>(w)) {
      if (!argument_memory(mem->getDest(), group)) return false;
    } else if (isa<CallBase>(w) && !isa<IntrinsicInst>(w)) {
      // A call writes the arguments only through a pointer it is given.
      bool given = false;
      for (const Use& a : cast<CallBase>(w)->args())
        given = given || (a->getType()->isPointerTy() && argument_memory(a.get(), group));
      if (!given) return false;
    }
  }
  return isModSet(aa.getModRefInfo(w, MemoryLocation::get(load)));
}

// The work-item taint analysis: which branches may depend on the work-item id. Sources:
// the id; atomics' results. It flows through operands, through memory (a load that a
// tainted write may clobber and may follow), and through control (a phi joining paths
// split by a tainted branch; writes under one).
// Strict, it is the uniformity the rewrite relies on (after the split at barriers): a value
// not tainted is the same for every work-item of the group. Then memory is per work-item
// where any work-item may write it in a region that reads it (in the loops, work-item 0
// runs the whole region before work-item 1 starts it), and so are private memory, loads
// that are not simple, and calls' results (but those of calls that touch no memory).
class Taint {
 public:
  struct Regions {
    DenseMap<const BasicBlock*, SmallVector<unsigned, 2>> of;  // the regions a block is in
    std::vector<std::vector<Instruction*>> writes;             // per region
  };
  Taint(Function& f, DominatorTree& dt, LoopInfo& li, AAResults& aa, const Argument* group,
        const Regions* strict = nullptr)
      : f_(f), dt_(dt), li_(li), aa_(aa), group_(group), strict_(strict) {}

  void run() {
    for (Instruction& i : instructions(f_))
      if (calls(i, work_item_name) || calls(i, local_id_name) || isa<AtomicRMWInst>(i) || isa<AtomicCmpXchgInst>(i) ||
          (strict_ && (isa<AllocaInst>(i) || i.isEHPad())))
        values_.insert(&i);
    for (bool changed = true; changed;) {
      changed = false;
      control();
      for (Instruction& i : instructions(f_)) {
        if (!values_.count(&i) && !i.getType()->isVoidTy() && tainted(i)) {
          values_.insert(&i);
          changed = true;
        }
        if (writes_.count(&i) || !writes_memory(i)) continue;
        bool t = blocks_.count(i.getParent()) != 0;
        for (const Use& u : i.operands()) t = t || values_.count(u.get());
        if (t) {
          writes_.insert(&i);
          write_list_.push_back(&i);
          changed = true;
        }
      }
    }
  }
  bool tainted_block(const BasicBlock* b) const { return blocks_.count(b) != 0; }
  bool tainted_value(const Value* v) const { return values_.count(v) != 0; }
  bool tainted_terminator(const BasicBlock* b) const {
    const Instruction* t = b->getTerminator();
    if (const auto* br = dyn_cast<BranchInst>(t)) return br->isConditional() && values_.count(br->getCondition());
    if (const auto* sw = dyn_cast<SwitchInst>(t)) return values_.count(sw->getCondition()) != 0;
    return false;
  }

 private:
  // Normal successors: an exception leaving a work-item ends its group, so unwind edges
  // and paths that can only end in one do not make control flow divergent.
  static SmallVector<BasicBlock*, 4> normal_successors(BasicBlock* b) {
    SmallVector<BasicBlock*, 4> out;
    if (auto* inv = dyn_cast<InvokeInst>(b->getTerminator()))
      out.push_back(inv->getNormalDest());
    else
      for (BasicBlock* s : successors(b)) out.push_back(s);
    return out;
  }
  // Post-dominance over normal paths to a return (an iterative data-flow over bit sets).
  void post_dominators() {
    for (BasicBlock& b : f_) index_[&b] = unsigned(blocks_in_order_.size()), blocks_in_order_.push_back(&b);
    const unsigned n = unsigned(blocks_in_order_.size());
    post_dom_.assign(n, BitVector(n, true));
    for (unsigned i = 0; i < n; ++i)
      if (isa<ReturnInst>(blocks_in_order_[i]->getTerminator())) post_dom_[i] = BitVector(n), post_dom_[i].set(i);
    returns_.assign(n, false);  // which blocks a normal path leads to a return from
    for (bool changed = true; changed;) {
      changed = false;
      for (unsigned i = 0; i < n; ++i) {
        bool r = isa<ReturnInst>(blocks_in_order_[i]->getTerminator());
        for (BasicBlock* s : normal_successors(blocks_in_order_[i])) r = r || returns_[index_[s]];
        if (r && !returns_[i]) returns_[i] = true, changed = true;
      }
    }
    for (bool changed = true; changed;) {
      changed = false;
      for (unsigned i = n; i-- > 0;) {
        BasicBlock* b = blocks_in_order_[i];
        const auto succ = normal_successors(b);
        if (succ.empty()) continue;  // a return (set above), or an end by exception or trap
        BitVector meet(n, true);
        for (BasicBlock* s : succ) meet &= post_dom_[index_[s]];
        meet.set(i);
        if (meet != post_dom_[i]) post_dom_[i] = meet, changed = true;
      }
    }
  }
  // Blocks control-dependent (transitively) on a tainted branch: X depends on Y when X
  // post-dominates a successor of Y but not Y itself.
  void control() {
    if (post_dom_.empty()) post_dominators();
    for (bool changed = true; changed;) {
      changed = false;
      for (BasicBlock* y : blocks_in_order_) {
        const auto succ = normal_successors(y);
        if (succ.size() < 2 || !(tainted_terminator(y) || blocks_.count(y))) continue;
        const BitVector& pdy = post_dom_[index_[y]];
        for (BasicBlock* s : succ)
          if (returns_[index_[s]])
            for (unsigned x : post_dom_[index_[s]].set_bits())
              if ((!pdy.test(x) || blocks_in_order_[x] == y) && blocks_.insert(blocks_in_order_[x]).second)
                changed = true;
      }
    }
  }
  bool clobbered(Instruction& i) const {
    for (Instruction* w : write_list_) {
      const auto* load = dyn_cast<LoadInst>(&i);
      const bool may = load ? may_clobber(aa_, w, load, group_) : isModSet(aa_.getModRefInfo(w, std::nullopt));
      if (may && isPotentiallyReachable(w, &i, nullptr, &dt_, &li_)) return true;
    }
    return false;
  }
  bool tainted(Instruction& i) const {
    if (calls(i, barriers_passed_name) || calls(i, available_name) || calls(i, barrier_name)) return false;
    if (auto* phi = dyn_cast<PHINode>(&i)) {
      for (unsigned k = 0; k < phi->getNumIncomingValues(); ++k) {
        const BasicBlock* in = phi->getIncomingBlock(k);
        if (values_.count(phi->getIncomingValue(k)) || blocks_.count(in) || tainted_terminator(in)) return true;
      }
      return false;
    }
    for (const Use& u : i.operands())
      if (values_.count(u.get())) return true;
    if (strict_) {
      if (auto* load = dyn_cast<LoadInst>(&i)) return !load->isSimple() || written_in_region(*load);
      if (auto* call = dyn_cast<CallBase>(&i)) return !call->doesNotAccessMemory() || isa<InvokeInst>(call);
      return i.mayReadOrWriteMemory();
    }
    if (isa<LoadInst>(i) || (isa<CallBase>(i) && i.mayReadFromMemory())) return clobbered(i);
    return false;
  }
  bool written_in_region(const LoadInst& load) const {
    const auto regions = strict_->of.find(load.getParent());
    if (regions == strict_->of.end()) return true;
    for (unsigned r : regions->second)
      for (Instruction* w : strict_->writes[r])
        if (may_clobber(aa_, w, &load, group_)) return true;
    return false;
  }

  Function& f_;
  DominatorTree& dt_;
  LoopInfo& li_;
  AAResults& aa_;
  const Argument* group_;
  const Regions* strict_;
  SmallPtrSet<const Value*, 32> values_;
  SmallPtrSet<const BasicBlock*, 16> blocks_;
  std::vector<BasicBlock*> blocks_in_order_;
  DenseMap<const BasicBlock*, unsigned> index_;
  std::vector<BitVector> post_dom_;
  std::vector<bool> returns_;
  SmallPtrSet<const Instruction*, 16> writes_;
  std::vector<Instruction*> write_list_;
};

// Where the kernel called the barrier: the outermost inlined location outside kapi's headers.
DiagnosticLocation kernel_location(const Function& f) {
  for (const char* marker : {barrier_name, available_name})
    for (const Instruction& i : instructions(f))
      if (calls(i, marker))
        if (const DILocation* l = i.getDebugLoc().get()) {
          const DILocation* best = l;
          for (const DILocation* at = l; at; at = at->getInlinedAt())
            if (at->getFilename().find("include/kapi/") == StringRef::npos) {
              best = at;
              break;
            }
          return DiagnosticLocation(best);
        }
  return DiagnosticLocation();
}

struct Region {
  BasicBlock* start = nullptr;
  std::vector<BasicBlock*> blocks;  // original blocks, in discovery order
  SmallPtrSet<BasicBlock*, 16> members;
  ValueToValueMapTy map;  // original → this region's clone
  SmallPtrSet<BasicBlock*, 16> clones;
  BasicBlock *pre = nullptr, *header = nullptr, *latch = nullptr, *after = nullptr;
  // With ids along the three levels of the local shape: the loops over levels 0 and 1
  // around the one over level 2 (header, latch).
  BasicBlock *outer_header[2] = {}, *outer_latch[2] = {};
  PHINode* counter[3] = {};  // the loops' counters, outermost first (one: the linear id)
  Value* id = nullptr;       // the work-item's linear id
  PHINode* exit = nullptr;
  std::map<int, bool> exits;             // exit codes: barrier k, or the return
  std::vector<CallBase*> calls;          // calls that may throw or read the engine's state
  bool uniform_exit = false;             // every work-item leaves it where work-item 0 does
  DenseMap<Value*, Value*> remat;        // values recomputed at the header
  DenseMap<Value*, Value*> remat_pre;    // values recomputed once, before the loop
  DenseMap<Value*, Value*> group_loads;  // uniform values kept once per group, loaded before the loop
  std::vector<Value*> arrays;            // the private memory's arrays, per alloca
};

class Rewriter {
 public:
  Rewriter(Function& f, FunctionAnalysisManager& fam)
      : f_(f), fam_(fam), ctx_(f.getContext()), where_(kernel_location(f)) {}
  const DiagnosticLocation& where() const { return where_; }

  // Checks and rewrites; returns "" when rewritten, else why not (f is then unchanged in
  // meaning: only inlined and split).
  std::string run(unsigned& regions_out) {
    if (!f_.getReturnType()->isVoidTy()) return "the loop form does not return void";
    const TargetLibraryInfo& tli = fam_.getResult<TargetLibraryAnalysis>(f_);
    const bool unoptimised = f_.hasFnAttribute(Attribute::OptimizeNone);
    if (std::string why = inline_marker_calls(f_, tli, unoptimised); !why.empty()) return why;
    f_.removeFnAttr(Attribute::OptimizeNone);
    f_.removeFnAttr(Attribute::NoInline);
    fam_.invalidate(f_, PreservedAnalyses::none());
    if (unoptimised) {  // what -O1 would have made of the inlined kernel, for the analyses
      // (twice: -O1 simplifies each callee before inlining it; here they came in unsimplified)
      PassBuilder pb;
      for (int k = 0; k < 2; ++k)
        pb.buildFunctionSimplificationPipeline(OptimizationLevel::O1, ThinOrFullLTOPhase::None).run(f_, fam_);
    } else {  // the inlined bodies' locals to registers, as the optimizer would have
      FunctionPassManager fpm;
      fpm.addPass(SROAPass(SROAOptions::PreserveCFG));
      // and the locals nothing reads deleted (a copied LocalAccessor's unread tag): private
      // memory left here becomes an array per work-item, its copy a memcpy per work-item in
      // the region's loop, which then does not vectorise.
      fpm.addPass(InstCombinePass());
      fpm.run(f_, fam_);
    }
    removeUnreachableBlocks(f_);
    fam_.invalidate(f_, PreservedAnalyses::none());

    CallBase* available = nullptr;
    for (Instruction& i : instructions(f_)) {
      if (calls(i, available_name)) {
        if (available) return "the loop form asks twice whether it was rewritten";
        available = cast<CallBase>(&i);
      }
      if (calls(i, barrier_name)) barriers_.push_back(cast<CallBase>(&i));
    }
    if (!available) return "the loop form's marker was optimised away";
    group_ = dyn_cast<Argument>(available->getArgOperand(0));
    if (!group_) return "the work-group is not the loop form's argument";
    if (barriers_.empty()) return "no barriers: the engine runs the group as a plain loop";
    where_ = kernel_location(f_);
    if (std::string why = check_instructions(); !why.empty()) return why;
    if (std::string why = check_exception_paths(); !why.empty()) return why;
    {
      DominatorTree dt(f_);
      LoopInfo li(dt);
      AAResults& aa = fam_.getResult<AAManager>(f_);
      Taint taint(f_, dt, li, aa, group_);
      taint.run();
      for (CallBase* b : barriers_)
        if (taint.tainted_block(b->getParent())) return "a barrier under control flow that depends on the work-item";
      find_invariant_loads(aa);
    }

    // Committed. The markers cannot throw in the loops (the barrier is gone): plain calls.
    for (Instruction& i : make_early_inc_range(instructions(f_)))
      if (auto* inv = dyn_cast<InvokeInst>(&i); inv && is_marker(inv->getCalledFunction())) {
        const bool barrier = calls(*inv, barrier_name);
        CallInst* call = changeToCall(inv);
        if (barrier)
          std::replace(barriers_.begin(), barriers_.end(), static_cast<CallBase*>(inv), static_cast<CallBase*>(call));
      }
    // Each barrier ends its block; the block after it starts a region.
    SmallPtrSet<BasicBlock*, 16> barrier_blocks;
    for (std::size_t k = 0; k < barriers_.size(); ++k) {
      BasicBlock* block = barriers_[k]->getParent();
      continuations_.push_back(block->splitBasicBlock(barriers_[k]->getNextNode(), "wgl.after.barrier"));
      barrier_blocks.insert(block);
      barrier_index_[block] = int(k);
    }
    // An invoke's value is stored where its normal path starts: give that its own block.
    for (BasicBlock& b : make_early_inc_range(f_))
      if (auto* inv = dyn_cast<InvokeInst>(b.getTerminator()))
        if (!inv->getType()->isVoidTy() && !inv->getNormalDest()->getSinglePredecessor())
          SplitEdge(&b, inv->getNormalDest());
    fam_.invalidate(f_, PreservedAnalyses::none());

    // The regions: from the entry and from each barrier, up to the next barriers.
    for (std::size_t k = 0; k <= barriers_.size(); ++k) regions_.emplace_back();
    regions_[0].start = &f_.getEntryBlock();
    for (std::size_t k = 0; k < continuations_.size(); ++k) regions_[k + 1].start = continuations_[k];
    for (Region& r : regions_) {
      SmallVector<BasicBlock*, 16> work{r.start};
      while (!work.empty()) {
        BasicBlock* b = work.pop_back_val();
        if (!r.members.insert(b).second) continue;
        r.blocks.push_back(b);
        if (barrier_blocks.count(b)) continue;
        for (BasicBlock* s : successors(b)) work.push_back(s);
      }
    }
    {
      Taint::Regions in_regions;
      in_regions.writes.resize(regions_.size());
      for (unsigned r = 0; r < regions_.size(); ++r)
        for (BasicBlock* b : regions_[r].blocks) {
          in_regions.of[b].push_back(r);
          for (Instruction& i : *b)
            if (writes_memory(i)) in_regions.writes[r].push_back(&i);
        }
      DominatorTree dt(f_);
      LoopInfo li(dt);
      AAResults& aa = fam_.getResult<AAManager>(f_);
      uniform_ = std::make_unique<Taint>(f_, dt, li, aa, group_, &in_regions);
      uniform_->run();
      for (Region& r : regions_) r.uniform_exit = exits_uniform(r, barrier_blocks);
    }
    rewrite();
    uniform_.reset();
    regions_out = unsigned(regions_.size());
    return "";
  }

 private:
  // Whether every work-item leaves region r at the barrier work-item 0 leaves it at: each
  // branch in it that may send work-items apart is uniform, or they meet again at a block
  // of the region (a post-dominator other than the region's end) before any exit.
  bool exits_uniform(const Region& r, const SmallPtrSet<BasicBlock*, 16>& barrier_blocks) const {
    const unsigned n = unsigned(r.blocks.size()), end = n;
    DenseMap<const BasicBlock*, unsigned> index;
    for (unsigned k = 0; k < n; ++k) index[r.blocks[k]] = k;
    auto terminal = [&](BasicBlock* b) { return barrier_blocks.count(b) || succ_empty(b); };
    std::vector<BitVector> pdom(n, BitVector(n + 1, true));
    for (unsigned k = 0; k < n; ++k)
      if (terminal(r.blocks[k])) pdom[k] = BitVector(n + 1), pdom[k].set(k), pdom[k].set(end);
    for (bool changed = true; changed;) {
      changed = false;
      for (unsigned k = n; k-- > 0;) {
        BasicBlock* b = r.blocks[k];
        if (terminal(b)) continue;
        BitVector meet(n + 1, true);
        for (BasicBlock* s : successors(b)) meet &= pdom[index.lookup(s)];
        meet.set(k);
        if (meet != pdom[k]) pdom[k] = meet, changed = true;
      }
    }
    for (unsigned k = 0; k < n; ++k) {
      BasicBlock* b = r.blocks[k];
      if (terminal(b) || !uniform_->tainted_terminator(b)) continue;
      BitVector meet = pdom[k];
      meet.reset(k);
      meet.reset(end);
      if (meet.none()) return false;
    }
    return true;
  }

  std::string check_instructions() {
    for (Instruction& i : instructions(f_)) {
      if (auto* a = dyn_cast<AllocaInst>(&i)) {
        if (!a->isStaticAlloca() || a->getParent() != &f_.getEntryBlock())
          return "dynamic private memory (a variable-length array or alloca)";
        if (a->getAlign().value() > 64) return "private memory aligned to more than 64 bytes";
      }
      if (isa<IndirectBrInst>(i) || isa<CallBrInst>(i)) return "an indirect branch";
      if (i.getType()->isTokenTy() && !isa<IntrinsicInst>(i)) return "exception-handling funclets";
      if (auto* call = dyn_cast<CallBase>(&i)) {
        if (call->hasFnAttr(Attribute::ReturnsTwice)) return "setjmp";
        if (auto* intr = dyn_cast<IntrinsicInst>(call)) {
          const Intrinsic::ID id = intr->getIntrinsicID();
          if (id == Intrinsic::stacksave || id == Intrinsic::stackrestore || id == Intrinsic::localescape ||
              id == Intrinsic::vastart)
            return "stack manipulation";
        }
      }
      if (isa<ScalableVectorType>(i.getType())) return "scalable vectors";
    }
    return "";
  }

  std::string check_exception_paths() {
    SmallPtrSet<BasicBlock*, 16> barrier_blocks;
    for (CallBase* b : barriers_) barrier_blocks.insert(b->getParent());
    SmallVector<BasicBlock*, 16> work;
    for (BasicBlock& b : f_)
      if (b.isEHPad()) work.push_back(&b);
    SmallPtrSet<BasicBlock*, 16> seen;
    while (!work.empty()) {
      BasicBlock* b = work.pop_back_val();
      if (!seen.insert(b).second) continue;
      if (barrier_blocks.count(b)) return "a barrier reached while handling an exception";
      for (BasicBlock* s : successors(b)) work.push_back(s);
    }
    return "";
  }

  // Loads of memory that nothing in the kernel writes: the same in every region, so a
  // region may load them again instead of keeping them per work-item.
  void find_invariant_loads(AAResults& aa) {
    std::vector<Instruction*> writes;
    for (Instruction& i : instructions(f_))
      if (writes_memory(i)) writes.push_back(&i);
    for (Instruction& i : instructions(f_)) {
      auto* load = dyn_cast<LoadInst>(&i);
      if (!load || !load->isSimple()) continue;
      bool invariant = true;
      for (Instruction* w : writes)
        if (may_clobber(aa, w, load, group_)) {
          invariant = false;
          break;
        }
      if (invariant) invariant_loads_.insert(load);
    }
  }

  Type* i64() { return Type::getInt64Ty(ctx_); }
  Type* i8() { return Type::getInt8Ty(ctx_); }
  FunctionCallee runtime(const char* name, Type* result, ArrayRef<Type*> params) {
    return f_.getParent()->getOrInsertFunction(name, FunctionType::get(result, params, false));
  }
  // base + n·offset + id·size: element `id` of the array at `offset` per work-item.
  Value* element(IRBuilder<>& b, std::uint64_t offset, std::uint64_t size, Value* id) {
    Value* at = b.CreateAdd(b.CreateMul(count_, b.getInt64(offset), "", true, true),
                            b.CreateMul(id, b.getInt64(size), "", true, true), "", true, true);
    return b.CreateInBoundsGEP(i8(), storage_, at);
  }

  void rewrite() {
    Type* ptr = PointerType::get(ctx_, 0);
    DebugLoc loc = barriers_.front()->getDebugLoc();
    // Debug intrinsics and lifetime markers name the originals: dropped (private memory
    // moves to the engine's storage).
    for (BasicBlock& bb : f_)
      for (Instruction& i : make_early_inc_range(bb))
        if (isa<DbgInfoIntrinsic>(i) || i.isLifetimeStartOrEnd()) i.eraseFromParent();
    std::vector<BasicBlock*> originals;
    for (BasicBlock& bb : f_) originals.push_back(&bb);
    SmallPtrSet<BasicBlock*, 32> original_set(originals.begin(), originals.end());

    // Entry: the group's size, the storage, the barrier counter.
    BasicBlock* old_entry = &f_.getEntryBlock();
    BasicBlock* entry = BasicBlock::Create(ctx_, "wgl.entry", &f_, old_entry);
    IRBuilder<> b(entry);
    b.SetCurrentDebugLocation(loc);
    count_ = b.CreateCall(runtime(enter_name, i64(), {ptr}), {group_}, "wgl.items");
    // The kernel asks for its ids along the local shape's levels: each region a nest of
    // three loops, so that those ids are the loops' counters (a linear id's divisions would
    // keep the region's loop from vectorising).
    nest_ = false;
    for (Instruction& i : instructions(f_)) nest_ = nest_ || calls(i, local_id_name);
    if (nest_)
      for (unsigned k = 0; k < 3; ++k)
        extent_[k] = b.CreateCall(runtime(extent_name, i64(), {ptr, Type::getInt32Ty(ctx_)}), {group_, b.getInt32(k)},
                                  "wgl.extent" + std::to_string(k));
    CallInst* storage = b.CreateCall(runtime(storage_name, ptr, {ptr, i64()}), {group_, b.getInt64(0)}, "wgl.storage");
    // The engine's own buffer, which nothing the kernel reaches points into (its arrays and
    // slots then cannot alias the kernel's memory, so loops over them can be vectorised).
    storage->addRetAttr(Attribute::NoAlias);
    storage->addRetAttr(Attribute::getWithAlignment(ctx_, Align(64)));
    storage_ = storage;
    AllocaInst* passed = b.CreateAlloca(i64(), nullptr, "wgl.barriers.passed");
    b.CreateStore(b.getInt64(0), passed);
    Value* item_slot = nullptr;

    // Private memory: one array per alloca, by alignment (largest first).
    std::vector<AllocaInst*> allocas;
    for (Instruction& i : *old_entry)
      if (auto* a = dyn_cast<AllocaInst>(&i)) allocas.push_back(a);
    std::stable_sort(allocas.begin(), allocas.end(),
                     [](AllocaInst* x, AllocaInst* y) { return x->getAlign() > y->getAlign(); });
    const DataLayout& dl = f_.getParent()->getDataLayout();
    std::uint64_t bytes = 0;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> alloca_layout;  // offset, size per work-item
    for (AllocaInst* a : allocas) {
      const std::uint64_t align = a->getAlign().value();
      const std::uint64_t size = alignTo(a->getAllocationSize(dl)->getFixedValue(), align);
      bytes = alignTo(bytes, align);
      alloca_layout.push_back({bytes, size});
      bytes += size;
    }
    bytes = alignTo(bytes, 64);

    const int return_code = int(barriers_.size());
    BasicBlock* ret = BasicBlock::Create(ctx_, "wgl.return", &f_);
    ReturnInst::Create(ctx_, ret)->setDebugLoc(loc);
    BasicBlock* diverged = BasicBlock::Create(ctx_, "wgl.diverged", &f_);
    {
      IRBuilder<> d(diverged);
      d.SetCurrentDebugLocation(loc);
      d.CreateCall(runtime(diverged_name, Type::getVoidTy(ctx_), {ptr}), {group_});
      d.CreateBr(ret);
    }

    // The regions' loops, each over a clone of its blocks.
    for (std::size_t r = 0; r < regions_.size(); ++r) {
      Region& region = regions_[r];
      const std::string tag = ".wgl" + std::to_string(r);
      region.pre = BasicBlock::Create(ctx_, "wgl.pre" + tag, &f_);
      region.header = BasicBlock::Create(ctx_, "wgl.header" + tag, &f_);
      region.latch = BasicBlock::Create(ctx_, "wgl.latch" + tag, &f_);
      region.after = BasicBlock::Create(ctx_, "wgl.after" + tag, &f_);
      BasicBlock* into = region.pre;  // where the innermost loop is entered from
      Value* row = nullptr;           // with the nest: the linear id of the innermost loop's first item
      if (nest_) {
        for (unsigned k = 0; k < 2; ++k) {
          const std::string level = std::to_string(k) + tag;
          region.outer_header[k] = BasicBlock::Create(ctx_, "wgl.level" + level, &f_);
          region.outer_latch[k] = BasicBlock::Create(ctx_, "wgl.level.latch" + level, &f_);
          BranchInst::Create(region.outer_header[k], into)->setDebugLoc(loc);
          IRBuilder<> o(region.outer_header[k]);
          o.SetCurrentDebugLocation(loc);
          region.counter[k] = o.CreatePHI(i64(), 2, "wgl.level" + std::to_string(k));
          region.counter[k]->addIncoming(o.getInt64(0), into);
          into = region.outer_header[k];
        }
        IRBuilder<> o(region.outer_header[1]);
        o.SetCurrentDebugLocation(loc);
        Value* plane =
            o.CreateAdd(o.CreateMul(region.counter[0], extent_[1], "", true, true), region.counter[1], "", true, true);
        row = o.CreateMul(plane, extent_[2], "wgl.row", true, true);
      }
      BranchInst::Create(region.header, into)->setDebugLoc(loc);
      IRBuilder<> h(region.header);
      h.SetCurrentDebugLocation(loc);
      PHINode* inner = h.CreatePHI(i64(), 2, nest_ ? "wgl.level2" : "wgl.id");
      inner->addIncoming(h.getInt64(0), into);
      region.counter[nest_ ? 2 : 0] = inner;
      region.id = nest_ ? h.CreateAdd(row, inner, "wgl.id", true, true) : inner;
      for (std::size_t k = 0; k < allocas.size(); ++k)
        region.arrays.push_back(element(h, alloca_layout[k].first, alloca_layout[k].second, region.id));
      IRBuilder<> l(region.latch);
      region.exit = l.CreatePHI(Type::getInt32Ty(ctx_), 4, "wgl.exit");

      for (BasicBlock* o : region.blocks) {
        BasicBlock* c = CloneBasicBlock(o, region.map, tag, &f_);
        region.map[o] = c;
        region.clones.insert(c);
      }
      // What nothing in the kernel writes, LLVM may load once (the kernel's stores to other
      // memory it cannot tell apart would keep it in the loop otherwise).
      for (BasicBlock* o : region.blocks)
        for (Instruction& i : *o)
          if (invariant_loads_.count(&i))
            cast<Instruction>(region.map[&i])->setMetadata(LLVMContext::MD_invariant_load, MDNode::get(ctx_, {}));
      // CloneBasicBlock mapped each alloca to its clone; the region uses its array.
      for (std::size_t k = 0; k < allocas.size(); ++k) region.map[allocas[k]] = region.arrays[k];
      h.CreateBr(cast<BasicBlock>(region.map[region.start]));
    }
    for (std::size_t r = 0; r < regions_.size(); ++r) {
      Region& region = regions_[r];
      for (BasicBlock* c : region.clones)
        for (Instruction& i : *c) RemapInstruction(&i, region.map, RF_IgnoreMissingLocals | RF_NoModuleLevelChanges);
    }

    for (std::size_t r = 0; r < regions_.size(); ++r) {
      Region& region = regions_[r];
      for (BasicBlock* c : region.clones) {
        // Phis keep the edges of this region only.
        for (PHINode& phi : make_early_inc_range(c->phis()))
          for (int k = int(phi.getNumIncomingValues()) - 1; k >= 0; --k)
            if (!region.clones.count(phi.getIncomingBlock(unsigned(k)))) phi.removeIncomingValue(unsigned(k), false);
        for (Instruction& i : make_early_inc_range(*c)) {
          if (isa<AllocaInst>(i)) {
            i.eraseFromParent();
            continue;
          }
          if (calls(i, work_item_name)) {
            IRBuilder<> at(&i);
            i.replaceAllUsesWith(at.CreateZExtOrTrunc(region.id, i.getType()));
            i.eraseFromParent();
          } else if (calls(i, local_id_name)) {
            IRBuilder<> at(&i);
            i.replaceAllUsesWith(
                at.CreateZExtOrTrunc(level_id(region, at, cast<CallBase>(i).getArgOperand(1)), i.getType()));
            i.eraseFromParent();
          } else if (calls(i, barriers_passed_name)) {
            IRBuilder<> at(&i);
            i.replaceAllUsesWith(at.CreateZExtOrTrunc(at.CreateLoad(i64(), passed), i.getType()));
            i.eraseFromParent();
          } else if (calls(i, available_name)) {
            i.replaceAllUsesWith(ConstantInt::getTrue(i.getType()));
            i.eraseFromParent();
          } else if (calls(i, barrier_name)) {
            // The barrier ends the region: the work-item's exit.
            Instruction* term = c->getTerminator();
            const int code = barrier_index_.lookup(barrier_block_of(region, c));
            i.eraseFromParent();
            term->eraseFromParent();
            BranchInst::Create(region.latch, c)->setDebugLoc(loc);
            region.exit->addIncoming(ConstantInt::get(Type::getInt32Ty(ctx_), code), c);
            region.exits[code] = true;
            break;
          } else if (auto* rt = dyn_cast<ReturnInst>(&i)) {
            rt->eraseFromParent();
            BranchInst::Create(region.latch, c)->setDebugLoc(loc);
            region.exit->addIncoming(ConstantInt::get(Type::getInt32Ty(ctx_), return_code), c);
            region.exits[return_code] = true;
            break;
          } else if (auto* call = dyn_cast<CallBase>(&i)) {
            if (!call->doesNotThrow() || !isa<IntrinsicInst>(call)) region.calls.push_back(call);
          }
        }
      }
    }

    // The dispatcher: after a region, where its work-items left it.
    std::vector<BasicBlock*> bump(barriers_.size());
    for (std::size_t k = 0; k < barriers_.size(); ++k) {
      bump[k] = BasicBlock::Create(ctx_, "wgl.barrier" + std::to_string(k), &f_);
      IRBuilder<> p(bump[k]);
      p.SetCurrentDebugLocation(loc);
      p.CreateStore(p.CreateAdd(p.CreateLoad(i64(), passed), p.getInt64(1)), passed);
      p.CreateBr(regions_[k + 1].pre);
    }
    auto target = [&](int code) { return code == return_code ? ret : bump[std::size_t(code)]; };
    for (Region& region : regions_) {
      IRBuilder<> l(region.latch);
      l.SetCurrentDebugLocation(loc);
      IRBuilder<> a(region.after);
      a.SetCurrentDebugLocation(loc);
      if (region.exits.size() <= 1) {
        close_loops(region, l);
        if (region.exits.empty()) {
          region.exit->eraseFromParent();
          a.CreateUnreachable();  // every path of the region ends the function otherwise
        } else {
          a.CreateBr(target(region.exits.begin()->first));
        }
        continue;
      }
      // Several exits. Where the analysis shows they are the same for every work-item, the
      // last one's is the group's; otherwise the smallest and the largest exit code over the
      // group (reductions the vectoriser can keep) must agree, or the group diverged.
      Value* code = region.exit;
      BasicBlock* dispatch = region.after;
      if (!region.uniform_exit) {
        Type* i32 = Type::getInt32Ty(ctx_);
        IRBuilder<> h(region.header, region.header->getFirstInsertionPt());
        PHINode* lo = h.CreatePHI(i32, 2, "wgl.exit.min");
        PHINode* hi = h.CreatePHI(i32, 2, "wgl.exit.max");
        Value* lo_next = l.CreateBinaryIntrinsic(Intrinsic::umin, lo, region.exit);
        Value* hi_next = l.CreateBinaryIntrinsic(Intrinsic::umax, hi, region.exit);
        carry(region, lo, ConstantInt::get(i32, return_code), lo_next);
        carry(region, hi, ConstantInt::get(i32, 0), hi_next);
        code = lo_next;
        dispatch = BasicBlock::Create(ctx_, "wgl.dispatch", &f_);
        a.CreateCondBr(a.CreateICmpNE(lo_next, hi_next), diverged, dispatch);
      }
      close_loops(region, l);
      IRBuilder<> d(dispatch);
      d.SetCurrentDebugLocation(loc);
      SwitchInst* sw = d.CreateSwitch(code, target(region.exits.begin()->first), unsigned(region.exits.size()));
      for (auto& [code, _] : region.exits) sw->addCase(ConstantInt::get(Type::getInt32Ty(ctx_), code), target(code));
    }
    b.CreateBr(regions_[0].pre);

    // The running work-item's id where the engine reports it, before each call that may
    // throw or look (not at every work-item: the store would keep its loop from vectorising).
    for (Region& region : regions_)
      for (CallBase* call : region.calls) {
        if (!item_slot) {
          IRBuilder<> e(storage->getNextNode());
          e.SetCurrentDebugLocation(loc);
          item_slot = e.CreateCall(runtime(item_name, ptr, {ptr}), {group_}, "wgl.item");
        }
        IRBuilder<> h(call);
        h.CreateStore(region.id, item_slot);
      }

    // Values used where their definition does not dominate: recomputed, or per work-item.
    DominatorTree dt(f_);
    struct Fix {
      Instruction* user;
      unsigned operand;
      Instruction* original;
      Region* region;
    };
    std::vector<Fix> fixes;
    DenseMap<Value*, Instruction*> original_of;
    for (Region& region : regions_)
      for (BasicBlock* o : region.blocks)
        for (Instruction& i : *o)
          if (Value* c = region.map.lookup(&i)) original_of[c] = &i;
    for (Region& region : regions_)
      for (BasicBlock* c : region.clones)
        for (Instruction& u : *c)
          for (unsigned k = 0; k < u.getNumOperands(); ++k) {
            auto* op = dyn_cast<Instruction>(u.getOperand(k));
            if (!op) continue;
            if (region.clones.count(op->getParent())) {
              if (dt.dominates(op, u.getOperandUse(k))) continue;
              fixes.push_back({&u, k, original_of.lookup(op), &region});
            } else if (original_set.count(op->getParent())) {
              fixes.push_back({&u, k, op, &region});
            }
          }
    // What cannot be recomputed: one slot per group where the value is uniform (every
    // work-item stores the same value; each region loads it once, before its loop), an
    // array per work-item otherwise.
    enum class Kept { pre, header, group, item };
    std::vector<Kept> how(fixes.size());
    std::vector<Instruction*> kept, kept_uniform;
    DenseMap<Instruction*, std::pair<std::uint64_t, std::uint64_t>> slot;  // offset, size
    DenseMap<Instruction*, std::uint64_t> group_slot;                      // offset
    for (std::size_t k = 0; k < fixes.size(); ++k) {
      Fix& fx = fixes[k];
      if (!fx.original) report_fatal_error("kapi-work-group-loops: a cloned value lost its original");
      if (recompute(*fx.region, fx.original, 0, true)) {
        how[k] = Kept::pre;
      } else if (recompute(*fx.region, fx.original, 0, false)) {
        how[k] = Kept::header;
      } else if (kept_once(*fx.region, fx.original, fx.user, fx.operand)) {
        how[k] = Kept::group;
        if (group_slot.try_emplace(fx.original, 0).second) kept_uniform.push_back(fx.original);
      } else {
        how[k] = Kept::item;
        if (slot.try_emplace(fx.original, std::pair<std::uint64_t, std::uint64_t>{0, 0}).second)
          kept.push_back(fx.original);
      }
    }
    auto by_alignment = [&](Instruction* x, Instruction* y) {
      return dl.getABITypeAlign(x->getType()) > dl.getABITypeAlign(y->getType());
    };
    std::stable_sort(kept.begin(), kept.end(), by_alignment);
    std::stable_sort(kept_uniform.begin(), kept_uniform.end(), by_alignment);
    for (Instruction* v : kept) {
      const std::uint64_t align = dl.getABITypeAlign(v->getType()).value();
      const std::uint64_t size = alignTo(dl.getTypeAllocSize(v->getType()).getFixedValue(), align);
      bytes = alignTo(bytes, align);
      slot[v] = {bytes, size};
      bytes += size;
    }
    bytes = alignTo(bytes, 64);
    std::uint64_t group_bytes = 0;
    for (Instruction* v : kept_uniform) {
      const std::uint64_t align = dl.getABITypeAlign(v->getType()).value();
      group_bytes = alignTo(group_bytes, align);
      group_slot[v] = group_bytes;
      group_bytes += dl.getTypeAllocSize(v->getType()).getFixedValue();
    }
    Value* group_base = nullptr;  // the group's slots, after the work-items' arrays
    {
      IRBuilder<> e(storage);
      Value* items_bytes = e.CreateMul(count_, e.getInt64(bytes), "wgl.bytes", true, true);
      storage->setArgOperand(1, e.CreateAdd(items_bytes, e.getInt64(group_bytes), "", true, true));
      if (!kept_uniform.empty()) {
        e.SetInsertPoint(storage->getNextNode());
        group_base = e.CreateInBoundsGEP(i8(), storage, items_bytes, "wgl.group");
      }
    }
    // Stores right after each clone of a kept value.
    auto after_clone = [](Instruction* c) -> Instruction* {
      if (auto* inv = dyn_cast<InvokeInst>(c)) return &*inv->getNormalDest()->getFirstInsertionPt();
      if (isa<PHINode>(c) || c->isEHPad()) return &*c->getParent()->getFirstInsertionPt();
      return c->getNextNode();
    };
    for (Region& region : regions_) {
      for (Instruction* v : kept) {
        auto* c = dyn_cast_or_null<Instruction>(region.map.lookup(v));
        if (!c || !region.clones.count(c->getParent())) continue;
        IRBuilder<> s(after_clone(c));
        s.CreateStore(c, element(s, slot[v].first, slot[v].second, region.id));
      }
      for (Instruction* v : kept_uniform) {
        auto* c = dyn_cast_or_null<Instruction>(region.map.lookup(v));
        if (!c || !region.clones.count(c->getParent())) continue;
        IRBuilder<> s(after_clone(c));
        s.CreateStore(c, s.CreateConstInBoundsGEP1_64(i8(), group_base, group_slot[v]));
      }
    }
    // Uses: the recomputed value, the group's value, or a load of the work-item's element.
    for (std::size_t k = 0; k < fixes.size(); ++k) {
      Fix& fx = fixes[k];
      Value* v = nullptr;
      if (how[k] == Kept::pre) {
        v = fx.region->remat_pre.lookup(fx.original);
      } else if (how[k] == Kept::header) {
        v = fx.region->remat.lookup(fx.original);
      } else if (how[k] == Kept::group) {
        Value*& loaded = fx.region->group_loads[fx.original];
        if (!loaded) {
          IRBuilder<> s(fx.region->pre->getTerminator());
          loaded = s.CreateLoad(fx.original->getType(),
                                s.CreateConstInBoundsGEP1_64(i8(), group_base, group_slot[fx.original]),
                                fx.original->getName() + ".wgl.group");
        }
        v = loaded;
      } else {
        Instruction* at = fx.user;
        if (auto* phi = dyn_cast<PHINode>(fx.user)) at = phi->getIncomingBlock(fx.operand)->getTerminator();
        IRBuilder<> s(at);
        v = s.CreateLoad(fx.original->getType(),
                         element(s, slot[fx.original].first, slot[fx.original].second, fx.region->id));
      }
      fx.user->setOperand(fx.operand, v);
    }

    // The originals go.
    for (BasicBlock* o : originals)
      for (Instruction& i : *o)
        for (User* u : i.users())
          if (auto* ui = dyn_cast<Instruction>(u); ui && !original_set.count(ui->getParent()))
            report_fatal_error("kapi-work-group-loops: a rewritten block still uses an original value");
    for (BasicBlock* o : originals) o->dropAllReferences();
    for (BasicBlock* o : originals) o->eraseFromParent();
  }

  // The work-item's id along `level` of the local shape: a counter of the region's nest.
  Value* level_id(Region& region, IRBuilder<>& b, Value* level) {
    if (!nest_) report_fatal_error("kapi-work-group-loops: a level's id without the loops over the levels");
    if (auto* c = dyn_cast<ConstantInt>(level))
      return c->getZExtValue() < 3 ? static_cast<Value*>(region.counter[c->getZExtValue()]) : b.getInt64(0);
    Value* id = b.getInt64(0);  // beyond the three levels, as the engine says
    for (unsigned k = 3; k-- > 0;)
      id = b.CreateSelect(b.CreateICmpEQ(level, ConstantInt::get(level->getType(), k)), region.counter[k], id);
    return id;
  }

  // A value carried from each work-item of the region's loops to the next (`next`, computed
  // in the latch), `init` before the first: `inner`, a phi of the innermost loop's header,
  // and with the nest a phi in each outer header.
  void carry(Region& region, PHINode* inner, Value* init, Value* next) {
    Value* in = init;
    BasicBlock* from = region.pre;
    if (nest_)
      for (unsigned k = 0; k < 2; ++k) {
        IRBuilder<> o(region.outer_header[k], region.outer_header[k]->getFirstInsertionPt());
        PHINode* p = o.CreatePHI(inner->getType(), 2, inner->getName() + ".level" + std::to_string(k));
        p->addIncoming(in, from);
        p->addIncoming(next, region.outer_latch[k]);
        in = p;
        from = region.outer_header[k];
      }
    inner->addIncoming(in, from);
    inner->addIncoming(next, region.latch);
  }

  // The latches: the next work-item of the innermost loop, then of the outer ones.
  void close_loops(Region& region, IRBuilder<>& l) {
    if (!nest_) {
      Value* next = l.CreateAdd(region.counter[0], l.getInt64(1), "wgl.next", true, true);
      region.counter[0]->addIncoming(next, region.latch);
      l.CreateCondBr(l.CreateICmpULT(next, count_), region.header, region.after);
      return;
    }
    BasicBlock* latch[3] = {region.outer_latch[0], region.outer_latch[1], region.latch};
    BasicBlock* header[3] = {region.outer_header[0], region.outer_header[1], region.header};
    for (unsigned k = 0; k < 3; ++k) {
      IRBuilder<> b(latch[k]);
      b.SetCurrentDebugLocation(l.getCurrentDebugLocation());
      Value* next = b.CreateAdd(region.counter[k], b.getInt64(1), "wgl.next" + std::to_string(k), true, true);
      region.counter[k]->addIncoming(next, latch[k]);
      b.CreateCondBr(b.CreateICmpULT(next, extent_[k]), header[k], k == 0 ? region.after : latch[k - 1]);
    }
  }

  // The barrier block a clone was made from (its barrier ends the region).
  BasicBlock* barrier_block_of(Region& region, BasicBlock* clone) {
    for (BasicBlock* o : region.blocks)
      if (region.map.lookup(o) == clone) return o;
    return nullptr;
  }

  // A value at region's header that equals `v` of the same work-item, if `v` is a pure
  // function of the id, the arguments and invariant memory; with `pre`, one before the
  // region's loop, if it is a function of the arguments and invariant memory alone (every
  // work-item computed `v` before the region, so evaluating it there is safe).
  Value* recompute(Region& region, Value* v, int depth, bool pre) {
    if (isa<Constant>(v) || isa<Argument>(v)) return v;
    auto* i = dyn_cast<Instruction>(v);
    if (!i || depth > 8) return nullptr;
    DenseMap<Value*, Value*>& memo = pre ? region.remat_pre : region.remat;
    if (auto found = memo.find(v); found != memo.end()) return found->second;
    Value* result = nullptr;
    IRBuilder<> h(pre ? region.pre->getTerminator() : region.header->getTerminator());
    if (calls(*i, work_item_name)) {
      result = pre ? nullptr : h.CreateZExtOrTrunc(region.id, i->getType());
    } else if (calls(*i, local_id_name)) {
      Value* level = pre ? nullptr : recompute(region, cast<CallBase>(i)->getArgOperand(1), depth + 1, false);
      result = level ? h.CreateZExtOrTrunc(level_id(region, h, level), i->getType()) : nullptr;
    } else if (isa<PHINode>(i) || isa<AllocaInst>(i) || i->isTerminator() || i->isEHPad() || (isa<CallBase>(i)) ||
               (i->mayReadOrWriteMemory() && !invariant_loads_.count(i))) {
      result = nullptr;
    } else {
      SmallVector<Value*, 4> ops;
      for (Value* op : i->operands()) {
        Value* r = recompute(region, op, depth + 1, pre);
        if (!r) return memo[v] = nullptr;
        ops.push_back(r);
      }
      Instruction* c = i->clone();
      for (unsigned k = 0; k < ops.size(); ++k) c->setOperand(k, ops[k]);
      c->setName(i->getName() + ".wgl");
      h.Insert(c);
      result = c;
    }
    memo[v] = result;
    return result;
  }

  // Whether the use (operand `k` of `user`, in region's clone) may read `v` from the group's
  // one slot, loaded before the region's loop: `v` is uniform and computed under uniform
  // control (every work-item stores the same values in the same order), and the region's
  // own clone of `v` cannot reach the use within the region (which therefore reads the value
  // `v` had when the region started).
  bool kept_once(Region& region, Instruction* v, Instruction* user, unsigned k) {
    if (uniform_->tainted_value(v) || uniform_->tainted_block(v->getParent()) || v->getType()->isTokenTy())
      return false;
    BasicBlock* at = user->getParent();
    if (auto* phi = dyn_cast<PHINode>(user)) at = phi->getIncomingBlock(k);
    auto* c = dyn_cast_or_null<Instruction>(region.map.lookup(v));
    if (!c || !region.clones.count(c->getParent())) return true;
    SmallPtrSet<BasicBlock*, 16> seen;
    SmallVector<BasicBlock*, 16> work(succ_begin(c->getParent()), succ_end(c->getParent()));
    if (auto* inv = dyn_cast<InvokeInst>(c)) work.assign({inv->getNormalDest()});
    while (!work.empty()) {
      BasicBlock* b = work.pop_back_val();
      if (!region.clones.count(b) || !seen.insert(b).second) continue;
      if (b == at) return false;
      for (BasicBlock* s : successors(b)) work.push_back(s);
    }
    return true;
  }

  Function& f_;
  FunctionAnalysisManager& fam_;
  LLVMContext& ctx_;
  Argument* group_ = nullptr;
  std::vector<CallBase*> barriers_;
  std::vector<BasicBlock*> continuations_;
  DenseMap<BasicBlock*, int> barrier_index_;
  std::deque<Region> regions_;  // (not movable: the value maps)
  SmallPtrSet<const Instruction*, 32> invariant_loads_;
  std::unique_ptr<Taint> uniform_;  // the strict analysis, while rewriting
  Value* count_ = nullptr;
  bool nest_ = false;      // the regions are nests over the local shape's three levels
  Value* extent_[3] = {};  // its extents, with the nest
  Value* storage_ = nullptr;
  DiagnosticLocation where_;
};

bool transform(Function& f, FunctionAnalysisManager& fam, bool vectorize) {
  f.addFnAttr(done_attribute);
  unsigned regions = 0;
  Rewriter rewriter(f, fam);
  const std::string why = rewriter.run(regions);
  const DiagnosticLocation where = rewriter.where();
  fam.invalidate(f, PreservedAnalyses::none());
  OptimizationRemarkEmitter ore(&f);
  if (!why.empty()) {
    ore.emit(OptimizationRemarkMissed(pass_name, "Fibers", where, &f.getEntryBlock())
             << "work-group left on fibers: " << why);
    return true;  // inlined and split at least
  }
  ore.emit(OptimizationRemark(pass_name, "Loops", where, &f.getEntryBlock())
           << "work-group transformed into " << std::to_string(regions) << " region loops");
  // What the optimizer would have done after the kernel's inlining, on the new loops.
  FunctionPassManager fpm;
  fpm.addPass(PromotePass());
  fpm.addPass(SROAPass(SROAOptions::ModifyCFG));
  fpm.addPass(EarlyCSEPass(true));
  fpm.addPass(InstCombinePass());
  fpm.addPass(SimplifyCFGPass());
  LoopPassManager lpm;
  lpm.addPass(LoopRotatePass());
  lpm.addPass(LICMPass(LICMOptions()));
  // A region's uniform values that leave it on one exit (the next `s` of a loop around a
  // barrier) are stored under a condition the same for every work-item; LICM turns those
  // stores into selects carried through the loop, which the vectoriser cannot take.
  // Unswitching on the (invariant) condition leaves loops with plain stores, which LICM
  // then sinks out of them.
  lpm.addPass(SimpleLoopUnswitchPass(/*NonTrivial=*/true));
  lpm.addPass(LICMPass(LICMOptions()));
  fpm.addPass(createFunctionToLoopPassAdaptor(std::move(lpm), /*UseMemorySSA=*/true));
  fpm.addPass(InstCombinePass());
  fpm.addPass(SimplifyCFGPass());
  if (vectorize) {
    fpm.addPass(LoopVectorizePass());
    fpm.addPass(InstCombinePass());
    fpm.addPass(SimplifyCFGPass());
  }
  fpm.run(f, fam);
  return true;
}

struct WorkGroupLoopsFunctionPass : PassInfoMixin<WorkGroupLoopsFunctionPass> {
  PreservedAnalyses run(Function& f, FunctionAnalysisManager& fam) {
    if (!has_loop_form(f)) return PreservedAnalyses::all();
    transform(f, fam, false);
    return PreservedAnalyses::none();
  }
  static bool isRequired() { return true; }
};

struct WorkGroupLoopsModulePass : PassInfoMixin<WorkGroupLoopsModulePass> {
  explicit WorkGroupLoopsModulePass(bool v) : vectorize(v) {}
  bool vectorize;
  PreservedAnalyses run(Module& m, ModuleAnalysisManager& mam) {
    FunctionAnalysisManager& fam = mam.getResult<FunctionAnalysisManagerModuleProxy>(m).getManager();
    bool changed = false;
    std::vector<Function*> todo;
    for (Function& f : m)
      if (has_loop_form(f)) todo.push_back(&f);
    for (Function* f : todo) changed |= transform(*f, fam, vectorize);
    return changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

}  // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, pass_name, "1", [](PassBuilder& pb) {
            // Where the kernel is inlined into its loop form and the vectorizer is next.
            pb.registerVectorizerStartEPCallback(
                [](FunctionPassManager& fpm, OptimizationLevel) { fpm.addPass(WorkGroupLoopsFunctionPass()); });
            // Whatever that did not see (-O0 runs no vectorizer).
            pb.registerOptimizerLastEPCallback([](ModulePassManager& mpm, OptimizationLevel level) {
              mpm.addPass(WorkGroupLoopsModulePass(level != OptimizationLevel::O0));
            });
          }};
}
