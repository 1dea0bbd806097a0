package timing

// UseScanLoop makes m walk every sub-partition at every event cycle, the
// loop the event queue replaced, so tests can compare the two.
func UseScanLoop(m *Model) { m.scan = true }
