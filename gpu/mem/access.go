// Package mem models how the memory system serves a warp's access: global
// sectors and requests (Volta+ rules), shared-memory banks and wavefronts, and
// the L1/L2 caches. It is fed by the simulator with the addresses the program
// really used; it knows nothing of PTX parsing or of Jupyter.
//
// This file is the contract between the simulator (which fills Access) and the
// memory model (which counts it).
package mem

// Space is the state space a warp access went to after generic addresses were resolved.
type Space uint8

// Memory spaces seen by the memory model.
const (
	Global Space = iota
	Shared
	Local
	Const
	Param
)

// Kind is what the access did.
type Kind uint8

// Access kinds.
const (
	Load Kind = iota
	Store
	Atomic    // atom: read-modify-write that returns a value
	Reduction // red: read-modify-write without a result
)

// CacheOp is the cache operator of a load or store (.ca .cg .cs .lu .cv, .wb .wt) or .nc.
type CacheOp uint8

// Cache operators; Default means none given.
const (
	Default CacheOp = iota
	CA
	CG
	CS
	LU
	CV
	WB
	WT
	NC // ld.global.nc / ldu
)

// Access is one warp-level memory instruction as executed: one entry per lane,
// only lanes whose bit is set in Mask took part.
type Access struct {
	PC    int // index of the instruction in its function's Insts
	Line  int // PTX line
	SM    int // SM the block runs on
	Block int // linear block index
	Warp  int // warp index within the block
	Space Space
	Kind  Kind
	Cache CacheOp
	Bytes int        // bytes per lane (vector width included: ld.v4.f32 -> 16)
	Mask  uint32     // lanes that performed the access
	DSMEM uint32     // of a shared access: the lanes whose address is another block's shared memory (a cluster peer's: distributed shared memory)
	Addr  [32]uint64 // per-lane address: global virtual address, or byte offset within shared/local windows
}
