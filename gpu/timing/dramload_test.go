package timing

import "testing"

// At a steady DRAM rate the queueing delay approaches DRAMQueueCycles u/(1-u),
// writes weighing DRAMWriteWeight; idle DRAM adds nothing; u is capped.
func TestDRAMLoadExtra(t *testing.T) {
	const bw = 1000.0
	for _, c := range []struct{ read, write float64 }{{0.1, 0}, {0.5, 0}, {0.3, 0.2}, {0, 0.4}} {
		var d dramLoad
		for now := int64(0); now < 20*dramLoadWindow; now += 10 {
			d.add(now, (c.read+c.write)*bw*10, c.write*bw*10)
		}
		u := c.read + DRAMWriteWeight*c.write
		want := DRAMQueueCycles * u / (1 - u)
		if x := float64(d.extra(bw)); x < 0.97*want-1 || x > 1.03*want+1 {
			t.Errorf("reads %.1f writes %.1f: extra %.0f, want about %.0f", c.read, c.write, x, want)
		}
		d.add(1000*dramLoadWindow, 64, 0)
		if got := d.extra(bw); got != 0 {
			t.Errorf("reads %.1f writes %.1f, after idle: extra %d, want 0", c.read, c.write, got)
		}
	}
	var d dramLoad
	d.add(0, 1e12, 0)
	q, m := float64(DRAMQueueCycles), dramMaxLoad
	want := int64(q*m/(1-m) + 0.5)
	if got := d.extra(bw); got != want {
		t.Errorf("saturated: extra %d, want %d", got, want)
	}
}
