package samples_test

import (
	"testing"

	"github.com/kernelscope/kernelscope/gpu/ptx"
	"github.com/kernelscope/kernelscope/magics"
	"github.com/kernelscope/kernelscope/samples"
)

// TestSamplesWorkWithoutACompiler checks what %sample needs when no compiler is
// installed: the bundled PTX parses and the %launch line is valid.
func TestSamplesWorkWithoutACompiler(t *testing.T) {
	for _, s := range samples.List() {
		mod, err := ptx.Parse(s.Name+".ptx", s.PTX)
		if err != nil {
			t.Errorf("%s: bundled PTX does not parse: %v", s.Name, err)
		} else if mod == nil {
			t.Errorf("%s: no module", s.Name)
		}
		l, err := magics.ParseLaunch(s.Launch)
		if err != nil {
			t.Errorf("%s: launch %q: %v", s.Name, s.Launch, err)
			continue
		}
		if l.Kernel != s.Name || len(l.Args) == 0 {
			t.Errorf("%s: launch %+v", s.Name, l)
		}
		for _, a := range l.Args {
			if a.Init != nil && a.Init.N > 1<<20 {
				t.Errorf("%s: buffer %s of %d elements is too big for a quick sample", s.Name, a.Name, a.Init.N)
			}
		}
	}
}
