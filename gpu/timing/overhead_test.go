package timing

import (
	"encoding/csv"
	"math"
	"os"
	"strconv"
	"testing"
)

// TestLaunchOverheadTable checks the embedded table against the measurement file.
func TestLaunchOverheadTable(t *testing.T) {
	f, err := os.Open("../../testdata/measured/launch_overhead/launch_overhead_sm90.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range rows[1:] {
		if r[0] != "empty_kernel" {
			continue
		}
		grid, _ := strconv.Atoi(r[1])
		block, _ := strconv.Atoi(r[2])
		cyc, err := strconv.ParseFloat(r[3], 64)
		if err != nil {
			t.Fatal(err)
		}
		n++
		if got := tableOverhead(grid, block); got != int64(math.Round(cyc)) {
			t.Errorf("grid %d block %d: table gives %d, measured %v", grid, block, got, cyc)
		}
	}
	if n != 36 {
		t.Errorf("%d empty-kernel rows, want 36", n)
	}
	// Between measured grids it interpolates; beyond them it extends the last slope.
	if a, b, c := LaunchOverhead(1056, 256), LaunchOverhead(2000, 256), LaunchOverhead(4224, 256); !(a < b && b < c) {
		t.Errorf("not increasing: %d %d %d", a, b, c)
	}
	if LaunchOverhead(8448, 256) <= LaunchOverhead(4224, 256) {
		t.Error("no extrapolation beyond the largest grid")
	}
}
