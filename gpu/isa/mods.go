package isa

// Typed modifiers: each modifier word ParseMods knows sets a flag or one
// field of an enum group, once per instruction, so that the simulator's
// lowering and the timing model test fields instead of modifier strings.

// Flag is one modifier word's presence bit (Mods.Flags).
type Flag uint64

// The flags, one per modifier word (the word in the comment).
const (
	FlagFtz         Flag   = 1 << iota // ftz
	FlagSat                            // sat
	FlagApprox                         // approx
	FlagFull                           // full
	FlagSync                           // sync
	FlagAligned                        // aligned
	FlagWide                           // wide
	FlagLo                             // lo (mul.lo, mad.lo; also the comparison setp.lo)
	FlagHi                             // hi (mul.hi, mad.hi; also the comparison setp.hi)
	FlagUni                            // uni (bra.uni, vote.uni)
	FlagNoftz                          // noftz
	FlagTo                             // to (cvta.to)
	FlagWarp                           // warp (bar.warp.sync)
	FlagCluster                        // cluster (barrier.cluster, and the cluster scope)
	FlagCTA                            // cta (the CTA scope; also bar.sync's .cta)
	FlagRed                            // red (bar.red)
	FlagArrive                         // arrive
	FlagWait                           // wait
	FlagAsync                          // async
	FlagBulk                           // bulk
	FlagTensor                         // tensor
	FlagMbarrier                       // mbarrier
	FlagReduce                         // reduce (cp.reduce)
	FlagCommitGroup                    // commit_group
	FlagWaitGroup                      // wait_group
	FlagWaitAll                        // wait_all
	FlagRead                           // read (cp.async.bulk.wait_group.read)
	FlagCacheHint                      // L2::cache_hint
	FlagTrans                          // trans
	FlagAbs                            // abs (redux.abs, min.abs)
	FlagNaN                            // NaN
	FlagParamFunc                      // param::func (the space, which cvta does not take)
	FlagMMA                            // mma (wmma.mma)
	FlagMMAAsync                       // mma_async (wgmma.mma_async)
	FlagLoad                           // load (wmma.load)
	FlagStore                          // store (wmma.store)
	FlagCC                             // cc (add.cc)
	numFlags        = iota             // number of flags
)

// Cmp is a comparison operator (setp, set).
type Cmp uint8

// The comparison operators.
const (
	CmpNone Cmp = iota
	CmpEq       // eq
	CmpNe       // ne
	CmpLt       // lt
	CmpLe       // le
	CmpGt       // gt
	CmpGe       // ge
	CmpLo       // lo
	CmpLs       // ls
	CmpHi       // hi
	CmpHs       // hs
	CmpEqu      // equ
	CmpNeu      // neu
	CmpLtu      // ltu
	CmpLeu      // leu
	CmpGtu      // gtu
	CmpGeu      // geu
	CmpNum      // num
	CmpNan      // nan
)

// Rnd is a rounding modifier.
type Rnd uint8

// The rounding modifiers.
const (
	RndNone Rnd = iota
	RndRN       // rn
	RndRZ       // rz
	RndRM       // rm
	RndRP       // rp
	RndRNA      // rna
	RndRS       // rs
	RndRNI      // rni
	RndRZI      // rzi
	RndRMI      // rmi
	RndRPI      // rpi
)

// AtomOp is the operation of atom, red, redux, bar.red and cp.reduce (and
// the boolean combine of setp: and, or, xor).
type AtomOp uint8

// The operations.
const (
	AtomNone AtomOp = iota
	AtomAdd         // add
	AtomMin         // min
	AtomMax         // max
	AtomInc         // inc
	AtomDec         // dec
	AtomCas         // cas
	AtomExch        // exch
	AtomAnd         // and
	AtomOr          // or
	AtomXor         // xor
	AtomPopc        // popc
	numAtomOps
)

// ShflMode is a shuffle mode.
type ShflMode uint8

// The shuffle modes.
const (
	ShflNone ShflMode = iota
	ShflUp            // up
	ShflDown          // down
	ShflBfly          // bfly
	ShflIdx           // idx
)

// VoteMode is a vote (or match) mode.
type VoteMode uint8

// The vote modes (match takes any and all).
const (
	VoteNone   VoteMode = iota
	VoteAll             // all
	VoteAny             // any
	VoteUni             // uni
	VoteBallot          // ballot
)

// Sem is a memory-ordering semantics modifier.
type Sem uint8

// The semantics.
const (
	SemNone     Sem = iota
	SemWeak         // weak
	SemRelaxed      // relaxed
	SemAcquire      // acquire
	SemRelease      // release
	SemAcqRel       // acq_rel
	SemSC           // sc
	SemVolatile     // volatile
	SemMMIO         // mmio
)

// Scope is a memory or barrier scope.
type Scope uint8

// The scopes (membar.gl is the GPU scope).
const (
	ScopeNone    Scope = iota
	ScopeCTA           // cta
	ScopeCluster       // cluster
	ScopeGPU           // gpu, gl
	ScopeSys           // sys
)

// word is what one modifier word sets.
type word struct {
	flag  Flag
	cmp   Cmp
	rnd   Rnd
	atom  AtomOp
	shfl  ShflMode
	vote  VoteMode
	sem   Sem
	scope Scope
}

// words maps each modifier word ParseMods types to what it sets (read-only).
var words = map[string]word{
	"ftz": {flag: FlagFtz}, "sat": {flag: FlagSat}, "approx": {flag: FlagApprox}, "full": {flag: FlagFull},
	"sync": {flag: FlagSync}, "aligned": {flag: FlagAligned}, "wide": {flag: FlagWide},
	"lo": {flag: FlagLo, cmp: CmpLo}, "hi": {flag: FlagHi, cmp: CmpHi},
	"uni": {flag: FlagUni, vote: VoteUni}, "noftz": {flag: FlagNoftz}, "to": {flag: FlagTo},
	"warp": {flag: FlagWarp}, "cluster": {flag: FlagCluster, scope: ScopeCluster}, "cta": {flag: FlagCTA, scope: ScopeCTA},
	"gpu": {scope: ScopeGPU}, "gl": {scope: ScopeGPU}, "sys": {scope: ScopeSys},
	"red": {flag: FlagRed}, "arrive": {flag: FlagArrive}, "wait": {flag: FlagWait}, "async": {flag: FlagAsync},
	"bulk": {flag: FlagBulk}, "tensor": {flag: FlagTensor}, "mbarrier": {flag: FlagMbarrier}, "reduce": {flag: FlagReduce},
	"commit_group": {flag: FlagCommitGroup}, "wait_group": {flag: FlagWaitGroup}, "wait_all": {flag: FlagWaitAll},
	"read": {flag: FlagRead}, "L2::cache_hint": {flag: FlagCacheHint}, "trans": {flag: FlagTrans},
	"abs": {flag: FlagAbs}, "NaN": {flag: FlagNaN}, "param::func": {flag: FlagParamFunc},
	"mma": {flag: FlagMMA}, "mma_async": {flag: FlagMMAAsync}, "load": {flag: FlagLoad}, "store": {flag: FlagStore},
	"cc": {flag: FlagCC},
	"eq": {cmp: CmpEq}, "ne": {cmp: CmpNe}, "lt": {cmp: CmpLt}, "le": {cmp: CmpLe}, "gt": {cmp: CmpGt}, "ge": {cmp: CmpGe},
	"ls": {cmp: CmpLs}, "hs": {cmp: CmpHs}, "equ": {cmp: CmpEqu}, "neu": {cmp: CmpNeu}, "ltu": {cmp: CmpLtu},
	"leu": {cmp: CmpLeu}, "gtu": {cmp: CmpGtu}, "geu": {cmp: CmpGeu}, "num": {cmp: CmpNum}, "nan": {cmp: CmpNan},
	"rn": {rnd: RndRN}, "rz": {rnd: RndRZ}, "rm": {rnd: RndRM}, "rp": {rnd: RndRP}, "rna": {rnd: RndRNA}, "rs": {rnd: RndRS},
	"rni": {rnd: RndRNI}, "rzi": {rnd: RndRZI}, "rmi": {rnd: RndRMI}, "rpi": {rnd: RndRPI},
	"add": {atom: AtomAdd}, "min": {atom: AtomMin}, "max": {atom: AtomMax}, "inc": {atom: AtomInc}, "dec": {atom: AtomDec},
	"cas": {atom: AtomCas}, "exch": {atom: AtomExch}, "and": {atom: AtomAnd}, "or": {atom: AtomOr}, "xor": {atom: AtomXor},
	"popc": {atom: AtomPopc},
	"up":   {shfl: ShflUp}, "down": {shfl: ShflDown}, "bfly": {shfl: ShflBfly}, "idx": {shfl: ShflIdx},
	"all": {vote: VoteAll}, "any": {vote: VoteAny}, "ballot": {vote: VoteBallot},
	"weak": {sem: SemWeak}, "relaxed": {sem: SemRelaxed}, "acquire": {sem: SemAcquire}, "release": {sem: SemRelease},
	"acq_rel": {sem: SemAcqRel}, "sc": {sem: SemSC}, "volatile": {sem: SemVolatile}, "mmio": {sem: SemMMIO},
}

// Has reports whether every flag of f is set.
func (m *Mods) Has(f Flag) bool { return m.Flags&f == f }

// HasAtom reports whether the operation word a appears (Atom is the last one).
func (m *Mods) HasAtom(a AtomOp) bool { return m.Atoms&(1<<a) != 0 }

// word applies one modifier word that is not a type.
func (m *Mods) word(s string) {
	w, ok := words[s]
	if !ok {
		return
	}
	m.Flags |= w.flag
	if w.cmp != CmpNone {
		m.Cmp = w.cmp
	}
	if w.rnd != RndNone {
		m.Rnd = w.rnd
	}
	if w.atom != AtomNone {
		m.Atom = w.atom
		m.Atoms |= 1 << w.atom
	}
	if w.shfl != ShflNone {
		m.Shfl = w.shfl
	}
	if w.vote != VoteNone {
		m.Vote = w.vote
	}
	if w.sem != SemNone {
		m.Sem = w.sem
	}
	if w.scope != ScopeNone {
		m.Scope = w.scope
	}
}

// parseShape parses a shape word mMnNkK (m16n8k16).
func parseShape(s string) (Shape, bool) {
	var v [3]uint16
	i := 0
	for k, c := range []byte{'m', 'n', 'k'} {
		if i >= len(s) || s[i] != c {
			return Shape{}, false
		}
		i++
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' && i-j < 4 {
			v[k] = v[k]*10 + uint16(s[i]-'0')
			i++
		}
		if i == j {
			return Shape{}, false
		}
	}
	if i != len(s) {
		return Shape{}, false
	}
	return Shape{M: v[0], N: v[1], K: v[2]}, true
}
