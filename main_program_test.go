package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/kernelscope/kernelscope/gpu/toolchain"
)

func TestRunProgramCLI(t *testing.T) {
	if _, err := toolchain.FindClang(); err != nil {
		if os.Getenv("KS_REQUIRE_TOOLS") != "" || os.Getenv("CI") != "" {
			t.Fatal("clang is required here (KS_REQUIRE_TOOLS/CI set) but not installed")
		}
		t.Skip("no clang on PATH")
	}
	var out, errb bytes.Buffer
	code := run([]string{"run", "testdata/programs/oob.cu"}, &out, &errb)
	if code != 2 || !strings.Contains(out.String(), "sync: cudaErrorIllegalAddress (700)") ||
		!strings.Contains(errb.String(), "launch 1 (fill") || !strings.Contains(errb.String(), "CUDA line 12") {
		t.Errorf("exit %d stdout %q stderr %q", code, out.String(), errb.String())
	}
	out.Reset()
	errb.Reset()
	code = run([]string{"run", "--json", "testdata/programs/scan.cu"}, &out, &errb)
	var doc struct {
		Program struct {
			ExitCode int    `json:"exit_code"`
			Stdout   string `json:"stdout"`
		} `json:"program"`
		Launches []struct {
			Kernel string `json:"kernel"`
		} `json:"launches"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatalf("json: %v\n%s", err, out.String())
	}
	if code != 0 || doc.Program.ExitCode != 0 || !strings.HasPrefix(doc.Program.Stdout, "cudaSuccess") || len(doc.Launches) != 3 ||
		doc.Launches[0].Kernel != "blockScan" || doc.Launches[2].Kernel != "addSums" {
		t.Errorf("exit %d doc %+v stderr %s", code, doc, errb.String())
	}
	out.Reset()
	code = run([]string{"run", "testdata/programs/segfault.cu"}, &out, &errb)
	if code != 139 || out.String() != "before the crash\n" || !strings.Contains(errb.String(), "signal 11") {
		t.Errorf("segfault: exit %d stdout %q stderr %q", code, out.String(), errb.String())
	}
}

func TestRunProgramSandboxRefused(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"run", "--sandbox", "testdata/programs/vector_add.cu"}, &out, &errb)
	if code != 1 || !strings.Contains(errb.String(), "--sandbox does not run host programs") || out.Len() != 0 {
		t.Errorf("exit %d stdout %q stderr %q", code, out.String(), errb.String())
	}
}

func TestRunProgramFileAsSingleKernel(t *testing.T) {
	var out, errb bytes.Buffer
	// With --launch the file's kernel is analysed as before, main() notwithstanding.
	code := run([]string{"run", "--json", "--launch", "vecAdd(a=ones(64), b=ones(64), c=zeros(64), n=64)", "--grid", "1", "--block", "64", "testdata/programs/vector_add.cu"}, &out, &errb)
	var rep struct {
		Kernel  string `json:"kernel"`
		Program any    `json:"program"`
	}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil || code != 0 || rep.Kernel != "vecAdd" || rep.Program != nil {
		t.Errorf("exit %d err %v report %+v stderr %q", code, err, rep, errb.String())
	}
}
