package sim

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/arith"
	"github.com/kernelscope/kernelscope/gpu/isa"
	"github.com/kernelscope/kernelscope/gpu/latency"
	"github.com/kernelscope/kernelscope/gpu/ptx"
)

// TestEveryOpcodeLowered: every opcode of gpu/isa is either lowered by the
// simulator (the lowering table names how; gpu/arith knows the lane-local
// ones) and given a timing class by gpu/latency, or refused as not
// implemented. Adding an opcode fails here until both places handle it.
func TestEveryOpcodeLowered(t *testing.T) {
	for op := isa.Opcode(1); op < isa.NumOpcodes; op++ {
		name := op.String()
		k := lowering[op]
		if k == lowerNone || k >= numLowerKinds {
			t.Errorf("%s: no entry in the simulator's lowering table (gpu/sim/lowering.go)", name)
			continue
		}
		_, err := arith.Decode(&ptx.Inst{Op: name})
		arithKnows := err == nil || !errors.Is(err, arith.ErrNotArith) && !strings.Contains(err.Error(), "is not implemented")
		switch {
		case k == lowerArith && !arithKnows:
			t.Errorf("%s: lowered through gpu/arith, which does not implement it (%v)", name, err)
		case k == lowerUnsupported && arithKnows:
			t.Errorf("%s: gpu/arith implements it but the simulator refuses it", name)
		}
		if k != lowerUnsupported && !latency.Classifies(name) {
			t.Errorf("%s: simulated, but gpu/latency has no timing class for it (latency.Classify)", name)
		}
	}
}

// TestUnsupportedOpcodesRefused: an instruction of an opcode the simulator
// refuses decodes to an op that fails, when executed, with an error naming
// the instruction and saying it is not implemented.
func TestUnsupportedOpcodesRefused(t *testing.T) {
	n := 0
	for op := isa.Opcode(1); op < isa.NumOpcodes; op++ {
		if lowering[op] != lowerUnsupported {
			continue
		}
		src := header + fmt.Sprintf(".visible .entry k()\n{\n\t.reg .b64 %%rd<3>;\n\t%s.b64 %%rd1, %%rd2;\n\tret;\n}\n", op)
		m, err := ptx.Parse("t.ptx", []byte(src))
		if err != nil {
			t.Errorf("%s: %v", op, err)
			continue
		}
		p, _, err := newProgram(m, "k", nil, &Config{}, newHeap())
		if err != nil {
			t.Errorf("%s: %v", op, err)
			continue
		}
		o, line := p.ops[0], lineOf(t, src, op.String()+".b64")
		if o.kind != kUnsupported || !strings.HasPrefix(o.msg, op.String()+".b64: ") || !strings.Contains(o.msg, "not implemented") || p.info[0].line != line {
			t.Errorf("%s: op kind %d, message %q, line %d; want a refusal at line %d saying it is not implemented", op, o.kind, o.msg, p.info[0].line, line)
		}
		n++
	}
	if n == 0 {
		t.Fatal("no opcode is refused: the test checks nothing")
	}
}
