package engine

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/kernelscope/kernelscope/kernel"
)

const programCell = `%arch sm_90
#include <cstdio>
__global__ void twice(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] *= 2;
  if (i == 0) printf("device says %d\n", a[0]);
}
int main() {
  int h[100];
  for (int i = 0; i < 100; i++) h[i] = i;
  int *d;
  cudaMalloc(&d, sizeof h);
  cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
  twice<<<4, 32>>>(d, 100);
  twice<<<4, 32>>>(d, 100);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  long s = 0;
  for (int i = 0; i < 100; i++) s += h[i];
  printf("sum %ld\n", s);
  return 0;
}
`

func TestProgramCell(t *testing.T) {
	needClang(t)
	e := newEngine(t)
	rec, err := run(t, e, programCell)
	if err != nil {
		t.Fatalf("cell failed: %v", err)
	}
	// 4 * (0 + ... + 99) = 19800; the second launch's device printf sees a[0] = 0.
	streams := strings.Join(rec.streams, "")
	if streams != "device says 0\ndevice says 0\nsum 19800\n" {
		t.Errorf("streams %q", streams)
	}
	texts := rec.texts()
	if len(texts) != 3 || !strings.HasPrefix(texts[0], "launch 1: twice<<<4, 32>>>") || !strings.HasPrefix(texts[1], "launch 2: twice<<<4, 32>>>") ||
		!strings.Contains(texts[2], "2 launches") || !strings.Contains(texts[2], "exit status 0") {
		t.Fatalf("displays %q", texts)
	}
	if h, _ := rec.first[0]["text/html"].(string); !strings.HasPrefix(h, "<details") {
		t.Errorf("launch report not collapsed: %.80s", h)
	}
	for i := 0; i < 2; i++ {
		if rep, ok := rec.first[i]["application/vnd.kernelscope.report+json"].(map[string]any); !ok || rep["simulated"] != true {
			t.Errorf("launch %d: no simulated JSON report", i+1)
		}
	}
	if !strings.Contains(texts[0], "sm_90") && !strings.Contains(rec.first[0]["text/html"].(string), "sm_90") {
		t.Errorf("the launch report does not name the cell's architecture")
	}
}

func TestProgramCellCrashAndInterrupt(t *testing.T) {
	needClang(t)
	e := newEngine(t)
	_, err := run(t, e, "__global__ void k() {}\nint main() {\n  k<<<1, 1>>>();\n  *(volatile int *)0 = 1;\n}\n")
	var ce *cellError
	if !errors.As(err, &ce) || ce.name != "ProgramExit" || !strings.Contains(ce.msg, "signal 11") {
		t.Fatalf("crash: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rec := &recorder{}
	done := make(chan error, 1)
	go func() {
		done <- e.Execute(ctx, kernel.ExecuteRequest{Code: "#include <cstdio>\nint main() {\n  printf(\"started\\n\");\n  fflush(stdout);\n  for (;;) {}\n}\n"}, rec)
	}()
	started := func() bool {
		rec.mu.Lock()
		defer rec.mu.Unlock()
		return strings.Contains(strings.Join(rec.streams, ""), "started")
	}
	safety := time.After(time.Minute)
	for !started() {
		select {
		case err := <-done:
			t.Fatalf("the endless program ended before the interrupt: %v", err)
		case <-safety:
			t.Fatal("the program did not start within a minute")
		case <-time.After(10 * time.Millisecond):
		}
	}
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("expected context.Canceled, got %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the program did not stop after the interrupt")
	}
	if _, err := run(t, e, programCell); err != nil {
		t.Fatalf("engine broken after the interrupt: %v", err)
	}
}

func TestProgramCellCapsReports(t *testing.T) {
	needClang(t)
	e := newEngine(t)
	rec, err := run(t, e, "__global__ void k(int *a) { a[threadIdx.x]++; }\nint main() {\n  int *d;\n  cudaMalloc(&d, 128);\n  for (int i = 0; i < 20; i++) k<<<1, 32>>>(d);\n  return cudaDeviceSynchronize();\n}\n")
	if err != nil {
		t.Fatal(err)
	}
	texts := rec.texts()
	if len(texts) != maxProgramReports+2 || !strings.HasPrefix(texts[maxProgramReports], "launches 17 to 20: reports not shown") ||
		!strings.Contains(texts[len(texts)-1], "20 launches") {
		t.Errorf("%d displays; last two %q", len(texts), texts[len(texts)-2:])
	}
}

// TestProgramCellStreamsLines: a line printed before a long wait reaches the cell
// before the program ends (stdout is line-buffered for cells).
func TestProgramCellStreamsLines(t *testing.T) {
	needClang(t)
	e := newEngine(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	rec := &recorder{}
	done := make(chan error, 1)
	go func() {
		done <- e.Execute(ctx, kernel.ExecuteRequest{Code: "#include <cstdio>\nint main() {\n  printf(\"first line\\n\");\n  for (;;) {}\n}\n"}, rec)
	}()
	safety := time.After(time.Minute)
	for {
		rec.mu.Lock()
		got := strings.Join(rec.streams, "")
		rec.mu.Unlock()
		if got == "first line\n" {
			break
		}
		select {
		case err := <-done:
			t.Fatalf("ended: %v", err)
		case <-safety:
			t.Fatalf("no line streamed within a minute: %q", got)
		case <-time.After(10 * time.Millisecond):
		}
	}
	cancel()
	<-done
}

func TestProgramCellRefusedInSandbox(t *testing.T) {
	e := New(t.TempDir(), nil, WithSandbox(), WithProgress(-1, 0))
	_, err := run(t, e, programCell)
	var ce *cellError
	if !errors.As(err, &ce) || ce.name != "ProgramError" || !strings.Contains(ce.msg, "sandbox mode does not run host programs") {
		t.Errorf("err %v", err)
	}
}

func TestProgramCellWithLaunchIsSingleKernel(t *testing.T) {
	needClang(t)
	e := newEngine(t)
	rec, err := run(t, e, "%launch twice(a=arange(100), n=100)\n%grid 4\n%block 32\n"+strings.SplitN(programCell, "\n", 2)[1])
	if err != nil {
		t.Fatal(err)
	}
	if texts := rec.texts(); len(texts) != 1 || strings.HasPrefix(texts[0], "launch 1") {
		t.Errorf("displays %q", texts)
	}
}

// TestProgramMagicCell: %program makes a cell a program though its main is not
// the `int main(` the detection looks for, and wins over an earlier cell's %launch;
// a %program cell without main says so.
func TestProgramMagicCell(t *testing.T) {
	needClang(t)
	e := newEngine(t)
	if _, err := run(t, e, "%launch k(a=zeros(32))\n"); err != nil {
		t.Fatalf("defaults cell: %v", err)
	}
	cell := "%program\n#include <cstdio>\n__global__ void k(int *a) { a[threadIdx.x] = threadIdx.x; }\nsigned main() {\n  int *d, h[32];\n  cudaMalloc(&d, sizeof h);\n  k<<<1, 32>>>(d);\n  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);\n  printf(\"h[31]=%d\\n\", h[31]);\n  return 0;\n}\n"
	rec, err := run(t, e, cell)
	if err != nil {
		t.Fatalf("cell failed: %v", err)
	}
	if s := strings.Join(rec.streams, ""); s != "h[31]=31\n" {
		t.Errorf("streams %q", s)
	}
	if texts := rec.texts(); len(texts) != 2 || !strings.Contains(texts[1], "1 launches") {
		t.Errorf("displays %q", texts)
	}
	_, err = run(t, e, "%program\n__global__ void k(int *a) { a[0] = 1; }\n")
	if err == nil || !strings.Contains(err.Error(), "cell line 1") || !strings.Contains(err.Error(), "no main function") {
		t.Errorf("a %%program cell without main: %v", err)
	}
}
