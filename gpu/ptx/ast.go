// Package ptx reads PTX assembly: a scanner and recursive-descent parser that
// produce a Module, a source map to CUDA lines from .loc directives, and the
// control-flow graph with immediate post-dominators (reconvergence points).
//
// This file is the contract shared by the parser, the simulator and the views.
package ptx

import "fmt"

// Pos is a compact position in a PTX text: 1-based line and column.
type Pos struct {
	Line int32
	Col  int32
}

// String formats the position as line:col.
func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// IsValid reports whether the position was set.
func (p Pos) IsValid() bool { return p.Line > 0 }

// Module is one parsed PTX file.
type Module struct {
	Version     string   // ".version 8.5" -> "8.5"
	Target      []string // ".target sm_90a, debug" -> ["sm_90a", "debug"]
	AddressSize int      // 32 or 64 (64 when absent)
	Files       []File   // .file directives in order
	Globals     []*Var   // module-scope .global/.const/.shared/.local variables
	Funcs       []*Func  // .entry and .func, declarations included
	Pragmas     []string // module-scope .pragma strings

	// Added by the parser: .alias directives and the strings of .section .debug_str
	// (labels such as $L__info_string0 named by .loc function_name).
	Aliases  []Alias
	DebugStr []DebugString
}

// Alias is one ".alias name, target;" directive.
type Alias struct {
	Pos          Pos
	Name, Target string
}

// DebugString is one labelled NUL-terminated string of the .debug_str section.
type DebugString struct {
	Label string
	Value string
}

// File is one .file directive.
type File struct {
	Pos       Pos
	Index     int
	Name      string
	Timestamp int64 // 0 when absent
	Size      int64 // 0 when absent
}

// Type is a PTX fundamental type (.u32, .f16x2, .pred ...).
type Type uint8

// The PTX fundamental types.
const (
	TypeNone Type = iota
	B8
	B16
	B32
	B64
	B128
	U8
	U16
	U32
	U64
	S8
	S16
	S32
	S64
	F16
	F16x2
	BF16
	BF16x2
	TF32
	F32
	F64
	Pred
	E4M3x2 // .e4m3x2
	E5M2x2 // .e5m2x2
	// Opaque handle types (added by the parser's author): .texref,
	// .samplerref and .surfref variables and parameters, 64-bit handles.
	TexRef
	SamplerRef
	SurfRef
)

var typeNames = [...]string{
	TypeNone: "", B8: "b8", B16: "b16", B32: "b32", B64: "b64", B128: "b128",
	U8: "u8", U16: "u16", U32: "u32", U64: "u64", S8: "s8", S16: "s16", S32: "s32", S64: "s64",
	F16: "f16", F16x2: "f16x2", BF16: "bf16", BF16x2: "bf16x2", TF32: "tf32", F32: "f32", F64: "f64",
	Pred: "pred", E4M3x2: "e4m3x2", E5M2x2: "e5m2x2",
	TexRef: "texref", SamplerRef: "samplerref", SurfRef: "surfref",
}

// String returns the type name without the leading dot ("u32").
func (t Type) String() string {
	if int(t) < len(typeNames) {
		return typeNames[t]
	}
	return fmt.Sprintf("Type(%d)", t)
}

// TypeByName maps a type name without the dot ("u32") to its Type.
func TypeByName(s string) (Type, bool) {
	for i, n := range typeNames {
		if n == s && i != 0 {
			return Type(i), true
		}
	}
	return TypeNone, false
}

// Size is the size of the type in bytes (pred counts as 1 for layout purposes).
func (t Type) Size() int {
	switch t {
	case B8, U8, S8, Pred:
		return 1
	case B16, U16, S16, F16, BF16, E4M3x2, E5M2x2:
		return 2
	case B32, U32, S32, F16x2, BF16x2, TF32, F32:
		return 4
	case B64, U64, S64, F64, TexRef, SamplerRef, SurfRef:
		return 8
	case B128:
		return 16
	}
	return 0
}

// Space is a PTX state space.
type Space uint8

// The PTX state spaces.
const (
	SpaceNone          Space = iota // generic addressing (no space given)
	SpaceReg                        // .reg
	SpaceSReg                       // special registers
	SpaceConst                      // .const
	SpaceGlobal                     // .global
	SpaceLocal                      // .local
	SpaceParam                      // .param (kernel or function parameters)
	SpaceShared                     // .shared (and .shared::cta)
	SpaceSharedCluster              // .shared::cluster
	SpaceTex                        // .tex
)

var spaceNames = [...]string{"", "reg", "sreg", "const", "global", "local", "param", "shared", "shared::cluster", "tex"}

// String returns the space name without the dot ("shared"); "" for generic.
func (s Space) String() string {
	if int(s) < len(spaceNames) {
		return spaceNames[s]
	}
	return fmt.Sprintf("Space(%d)", s)
}

// Linkage holds the linking directives of a function or variable.
type Linkage uint8

// Linkage bits.
const (
	Visible Linkage = 1 << iota
	Extern
	Weak
	Common
)

// Func is a .entry (kernel) or .func (device function).
type Func struct {
	Pos      Pos
	EndPos   Pos // position of the closing brace; zero for declarations
	Name     string
	Entry    bool // .entry rather than .func
	Linkage  Linkage
	NoReturn bool
	HasBody  bool // false for a prototype / extern declaration
	Params   []*Param
	Rets     []*Param // .func return parameters

	// Performance directives; zero when absent.
	MaxNTid, ReqNTid  [3]int
	MinNCTAPerSM      int
	MaxNReg           int
	MaxClusterRank    int
	ReqNCTAPerCluster [3]int
	ExplicitCluster   bool // .explicitcluster
	Pragmas           []string
	// PragmaIndex holds, for each entry of Pragmas, the index into Insts of the
	// instruction that follows it (0 for the header's and those before the first
	// instruction): nvcc's `.pragma "nounroll";` after a loop's head label.
	PragmaIndex []int

	Targets []*Targets // .branchtargets / .calltargets lists declared in the body
	Protos  []*Func    // .callprototype declarations in the body (Name is the label)
	Regs    []*RegDecl // every .reg declaration in the body, nested scopes flattened
	Vars    []*Var     // .shared/.local/.const/.param variables declared in the body
	Insts   []*Inst    // instruction statements in order, nested { } scopes flattened
	// Labels in source order; Index is the index into Insts of the instruction
	// that follows the label (len(Insts) for a label at the end of the body).
	Labels []Label
}

// Param is one parameter of a function or kernel.
type Param struct {
	Pos      Pos
	Name     string
	Type     Type
	Align    int // .align N; 0 when absent
	ArrayLen int // .b8 name[SIZE] -> SIZE; 0 for scalars
	// .ptr attributes of kernel parameters (".ptr .global .align 16").
	Ptr      bool
	PtrSpace Space
	PtrAlign int
	Reg      bool // declared in .reg rather than .param (non-ABI .func parameters)
}

// Size is the parameter's size in bytes.
func (p *Param) Size() int {
	if p.ArrayLen > 0 {
		return p.Type.Size() * p.ArrayLen
	}
	return p.Type.Size()
}

// RegDecl is one .reg declaration: ".reg .b32 %r<16>" has Name "%r", Count 16;
// ".reg .f32 %f" has Count 0. Vec is 0, 2 or 4 for .v2/.v4 registers.
type RegDecl struct {
	Pos   Pos
	Type  Type
	Vec   int
	Name  string
	Count int
}

// Var is a variable in a state space, at module scope or in a body.
type Var struct {
	Pos     Pos
	Space   Space
	Linkage Linkage
	Align   int // 0 when absent
	Type    Type
	Vec     int
	Name    string
	Dims    []int // array dimensions; -1 for an unsized dimension ("[]")
	Init    *Init // nil when there is no initialiser
	// Index (body variables only) is the index into Func.Insts of the first
	// instruction after the declaration. Nested scopes may declare the same
	// name again (nvcc's call sequences): see Func.LookupVar.
	Index int
}

// Size is the variable's size in bytes (0 for unsized arrays).
func (v *Var) Size() int {
	n := v.Type.Size()
	if v.Vec > 0 {
		n *= v.Vec
	}
	for _, d := range v.Dims {
		if d < 0 {
			return 0
		}
		n *= d
	}
	return n
}

// Init is an initialiser: a brace list (List true, Elems) or one value.
// Value may be an immediate (constant expressions are folded), a float, a
// symbol with offset in Imm, generic(sym) (Kind OpSym with Generic set) or a
// byte mask 0xff00(value) (Kind OpMask).
type Init struct {
	List  bool
	Elems []*Init
	Value Operand
}

// Targets is a labelled ".branchtargets" (Call false) or ".calltargets" (Call true) list.
type Targets struct {
	Pos    Pos
	Name   string
	Call   bool
	Labels []string
}

// Label is a label in a function body.
type Label struct {
	Pos   Pos
	Name  string
	Index int
}

// Loc is the CUDA source location of an instruction from the .loc in effect.
// File is the .file index; 0 means no location. For code inlined from another
// function, Inlined* hold the call site (".loc ... inlined_at F L C").
type Loc struct {
	File, Line, Col                      int32
	InlinedFile, InlinedLine, InlinedCol int32
	Func                                 string // ".loc ... function_name $L__info_string0": the label, see Module.DebugStr
}

// Inst is one instruction statement.
type Inst struct {
	Pos      Pos
	Guard    string // guard predicate register ("%p1"); "" when unguarded
	GuardNeg bool   // @!%p
	Op       string // opcode without modifiers: "ld", "setp", "mad"
	// Mods are the dotted modifiers in source order, without dots:
	// "ld.global.nc.v4.f32" -> ["global", "nc", "v4", "f32"];
	// "shfl.sync.down.b32" -> ["sync", "down", "b32"]; "cvta.to.global.u64" -> ["to", "global", "u64"].
	// Multi-part modifiers keep their "::" ("shared::cta", "L2::cache_hint").
	Mods []string
	Args []Operand
	Loc  Loc
}

// OperandKind says what an Operand is.
type OperandKind uint8

// Operand kinds.
const (
	OpNone    OperandKind = iota
	OpReg                 // a declared register: Name "%r5" (Comp for vector components: "%v1.x" -> Name "%v1", Comp "x")
	OpSpecial             // a special register: Name "%tid", Comp "x"; "%laneid" has Comp ""
	OpImm                 // an integer immediate in Imm (U suffix and radix already applied)
	OpFloat               // a float immediate: Bits holds the raw bits, FloatBits is 32 (0f...) or 64 (0d... or a decimal literal)
	OpSym                 // a variable, parameter or function name in Name; Imm holds an offset ("arr+8"); Generic for generic(sym) in initialisers
	OpLabel               // a label in Name (branch targets, brx.idx tables)
	OpAddr                // [base+offset]: Name is the base (a register or symbol, "" for an absolute address), BaseReg says which, Imm the offset
	OpVec                 // {a, b, c, d}: Elems ("_" elements are OpSink)
	OpList                // a parenthesised list (call return/argument lists): Elems
	OpSink                // _
	OpPair                // p|q destination of setp and friends: Elems[0], Elems[1]
	OpMask                // byte mask in initialisers, "0xff00(generic(foo)+4)": Imm is the mask, Elems[0] the value
)

// Operand is one instruction operand.
type Operand struct {
	Kind      OperandKind
	Not       bool // !%p (negated predicate source)
	Neg       bool // -%r (negated source, where the ISA allows it)
	Name      string
	Comp      string // component suffix: x, y, z, w (or r, g, b, a)
	Sel       string // video-instruction selector or mask: b0..b3, h0, h1, .hxy, .bxyzw (without the dot)
	BaseReg   bool   // OpAddr: Name is a register (else a symbol or absolute)
	Generic   bool   // OpSym in initialisers: generic(sym)
	Imm       int64
	Bits      uint64
	FloatBits int
	Elems     []Operand
}
