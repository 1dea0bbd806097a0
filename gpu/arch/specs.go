package arch

// specs is the read-only database; Lookup hands out copies.
var specs = [...]Spec{
	{
		Name:   "sm_75",    // compute capability 7.5
		Major:  7,          // NCU 7.5: cc_major
		Minor:  5,          // NCU 7.5: cc_minor
		Family: "TU10x",    // NCU 7.5: chip_family
		Part:   "Tesla T4", // reference part for SMs, clock, L2 and bandwidth

		SMs:                40,   // SPEC: T4 has 40 SMs (2560 CUDA cores / 64)
		WarpSize:           32,   // NCU 7.5: threads_per_warp
		MaxWarpsPerSM:      32,   // NCU 7.5: max_warps_per_sm
		MaxBlocksPerSM:     16,   // NCU 7.5: max_thread_blocks_per_sm
		MaxThreadsPerSM:    1024, // NCU 7.5: max_threads_per_sm
		MaxThreadsPerBlock: 1024, // NCU 7.5: max_thread_block_size
		BarriersPerSM:      32,   // NCU 7.5: block_barriers_per_sm
		SubPartitions:      4,    // OCC: cudaOccSubPartitionsPerMultiprocessor is 4 for cc 7.0 and later

		RegistersPerSM:       65536,  // NCU 7.5: registers_per_sm
		MaxRegsPerBlock:      65536,  // NCU 7.5: max_regs_per_block
		MaxRegsPerThread:     255,    // NCU 7.5: max_regs_per_thread
		RegAllocUnit:         256,    // NCU 7.5: reg_allocation_unit_size
		RegAllocGranularity:  "warp", // NCU 7.5: reg_allocation_granularity
		WarpAllocGranularity: 4,      // NCU 7.5: warps_allocation_granularity

		SharedPerSM:            64 * KB,                 // NCU 7.5: smem_per_sm
		SharedPerBlock:         48 * KB,                 // CPG: 48 KB per block without opt-in
		SharedPerBlockOptIn:    64 * KB,                 // CPG: max opt-in shared memory per block
		ReservedSharedPerBlock: 0,                       // CPG/OCC: the driver reserves no shared memory per block
		SharedAllocUnit:        256,                     // NCU 7.5: shared_mem_allocation_unit_size
		Carveouts:              []int{32 * KB, 64 * KB}, // NCU 7.5: shared_mem_size_configs

		L1SharedBytes: 96 * KB, // CPG 7.x: unified L1/shared 96 KB per SM
		L2Bytes:       4 * MB,  // SPEC: T4 L2 4 MB
		LineBytes:     128,     // CPG: 128-byte cache lines
		L2FetchBytes:  32,      // not measured for this part: one sector (the documented access unit)
		SectorBytes:   32,      // CPG: 32-byte sectors, the unit of a memory transaction

		ClockMHz:        1590, // SPEC: T4 boost clock 1590 MHz, 320 GB/s GDDR6
		MemBandwidthGBs: 320,  // SPEC: T4 boost clock 1590 MHz, 320 GB/s GDDR6
	},
	{
		Name:   "sm_80",                 // compute capability 8.0
		Major:  8,                       // NCU 8.0: cc_major
		Minor:  0,                       // NCU 8.0: cc_minor
		Family: "GA100",                 // NCU 8.0: chip_family
		Part:   "NVIDIA A100-SXM4-40GB", // reference part for SMs, clock, L2 and bandwidth

		SMs:                108,  // SPEC: A100 has 108 SMs
		WarpSize:           32,   // NCU 8.0: threads_per_warp
		MaxWarpsPerSM:      64,   // NCU 8.0: max_warps_per_sm
		MaxBlocksPerSM:     32,   // NCU 8.0: max_thread_blocks_per_sm
		MaxThreadsPerSM:    2048, // NCU 8.0: max_threads_per_sm
		MaxThreadsPerBlock: 1024, // NCU 8.0: max_thread_block_size
		BarriersPerSM:      64,   // NCU 8.0: block_barriers_per_sm
		SubPartitions:      4,    // OCC: cudaOccSubPartitionsPerMultiprocessor is 4 for cc 7.0 and later

		RegistersPerSM:       65536,  // NCU 8.0: registers_per_sm
		MaxRegsPerBlock:      65536,  // NCU 8.0: max_regs_per_block
		MaxRegsPerThread:     255,    // NCU 8.0: max_regs_per_thread
		RegAllocUnit:         256,    // NCU 8.0: reg_allocation_unit_size
		RegAllocGranularity:  "warp", // NCU 8.0: reg_allocation_granularity
		WarpAllocGranularity: 4,      // NCU 8.0: warps_allocation_granularity

		SharedPerSM:            164 * KB,                                                                  // NCU 8.0: smem_per_sm
		SharedPerBlock:         48 * KB,                                                                   // CPG: 48 KB per block without opt-in
		SharedPerBlockOptIn:    163 * KB,                                                                  // CPG: max opt-in shared memory per block
		ReservedSharedPerBlock: 1 * KB,                                                                    // CPG/OCC: the driver reserves 1 KB of shared memory per block
		SharedAllocUnit:        128,                                                                       // NCU 8.0: shared_mem_allocation_unit_size
		Carveouts:              []int{0, 8 * KB, 16 * KB, 32 * KB, 64 * KB, 100 * KB, 132 * KB, 164 * KB}, // NCU 8.0: shared_mem_size_configs

		L1SharedBytes: 192 * KB, // CPG 8.0: unified L1/shared 192 KB per SM
		L2Bytes:       40 * MB,  // SPEC: A100 L2 40 MB
		LineBytes:     128,      // CPG: 128-byte cache lines
		L2FetchBytes:  32,       // not measured for this part: one sector (the documented access unit)
		SectorBytes:   32,       // CPG: 32-byte sectors, the unit of a memory transaction

		ClockMHz:        1410, // SPEC: A100 40GB boost clock 1410 MHz, 1555 GB/s HBM2
		MemBandwidthGBs: 1555, // SPEC: A100 40GB boost clock 1410 MHz, 1555 GB/s HBM2
	},
	{
		Name:   "sm_86",                   // compute capability 8.6
		Major:  8,                         // NCU 8.6: cc_major
		Minor:  6,                         // NCU 8.6: cc_minor
		Family: "GA10x",                   // NCU 8.6: chip_family
		Part:   "NVIDIA GeForce RTX 3090", // reference part for SMs, clock, L2 and bandwidth

		SMs:                82,   // SPEC: RTX 3090 has 82 SMs
		WarpSize:           32,   // NCU 8.6: threads_per_warp
		MaxWarpsPerSM:      48,   // NCU 8.6: max_warps_per_sm
		MaxBlocksPerSM:     16,   // NCU 8.6: max_thread_blocks_per_sm
		MaxThreadsPerSM:    1536, // NCU 8.6: max_threads_per_sm
		MaxThreadsPerBlock: 1024, // NCU 8.6: max_thread_block_size
		BarriersPerSM:      16,   // NCU 8.6: block_barriers_per_sm
		SubPartitions:      4,    // OCC: cudaOccSubPartitionsPerMultiprocessor is 4 for cc 7.0 and later

		RegistersPerSM:       65536,  // NCU 8.6: registers_per_sm
		MaxRegsPerBlock:      65536,  // NCU 8.6: max_regs_per_block
		MaxRegsPerThread:     255,    // NCU 8.6: max_regs_per_thread
		RegAllocUnit:         256,    // NCU 8.6: reg_allocation_unit_size
		RegAllocGranularity:  "warp", // NCU 8.6: reg_allocation_granularity
		WarpAllocGranularity: 4,      // NCU 8.6: warps_allocation_granularity

		SharedPerSM:            100 * KB,                                              // NCU 8.6: smem_per_sm
		SharedPerBlock:         48 * KB,                                               // CPG: 48 KB per block without opt-in
		SharedPerBlockOptIn:    99 * KB,                                               // CPG: max opt-in shared memory per block
		ReservedSharedPerBlock: 1 * KB,                                                // CPG/OCC: the driver reserves 1 KB of shared memory per block
		SharedAllocUnit:        128,                                                   // NCU 8.6: shared_mem_allocation_unit_size
		Carveouts:              []int{0, 8 * KB, 16 * KB, 32 * KB, 64 * KB, 100 * KB}, // NCU 8.6: shared_mem_size_configs

		L1SharedBytes: 128 * KB, // CPG 8.6: unified L1/shared 128 KB per SM
		L2Bytes:       6 * MB,   // SPEC: RTX 3090 L2 6 MB
		LineBytes:     128,      // CPG: 128-byte cache lines
		L2FetchBytes:  32,       // not measured for this part: one sector (the documented access unit)
		SectorBytes:   32,       // CPG: 32-byte sectors, the unit of a memory transaction

		ClockMHz:        1695, // SPEC: RTX 3090 boost clock 1695 MHz, 936 GB/s GDDR6X
		MemBandwidthGBs: 936,  // SPEC: RTX 3090 boost clock 1695 MHz, 936 GB/s GDDR6X
	},
	{
		Name:   "sm_87",                // compute capability 8.7
		Major:  8,                      // NCU 8.7: cc_major
		Minor:  7,                      // NCU 8.7: cc_minor
		Family: "GA10y",                // NCU 8.7: chip_family
		Part:   "Jetson AGX Orin 64GB", // reference part for SMs, clock, L2 and bandwidth

		SMs:                16,   // SPEC: AGX Orin 64GB has 2048 CUDA cores = 16 SMs
		WarpSize:           32,   // NCU 8.7: threads_per_warp
		MaxWarpsPerSM:      48,   // NCU 8.7: max_warps_per_sm
		MaxBlocksPerSM:     16,   // NCU 8.7: max_thread_blocks_per_sm
		MaxThreadsPerSM:    1536, // NCU 8.7: max_threads_per_sm
		MaxThreadsPerBlock: 1024, // NCU 8.7: max_thread_block_size
		BarriersPerSM:      16,   // NCU 8.7: block_barriers_per_sm
		SubPartitions:      4,    // OCC: cudaOccSubPartitionsPerMultiprocessor is 4 for cc 7.0 and later

		RegistersPerSM:       65536,  // NCU 8.7: registers_per_sm
		MaxRegsPerBlock:      65536,  // NCU 8.7: max_regs_per_block
		MaxRegsPerThread:     255,    // NCU 8.7: max_regs_per_thread
		RegAllocUnit:         256,    // NCU 8.7: reg_allocation_unit_size
		RegAllocGranularity:  "warp", // NCU 8.7: reg_allocation_granularity
		WarpAllocGranularity: 4,      // NCU 8.7: warps_allocation_granularity

		SharedPerSM:            164 * KB,                                                                  // NCU 8.7: smem_per_sm
		SharedPerBlock:         48 * KB,                                                                   // CPG: 48 KB per block without opt-in
		SharedPerBlockOptIn:    163 * KB,                                                                  // CPG: max opt-in shared memory per block
		ReservedSharedPerBlock: 1 * KB,                                                                    // CPG/OCC: the driver reserves 1 KB of shared memory per block
		SharedAllocUnit:        128,                                                                       // NCU 8.7: shared_mem_allocation_unit_size
		Carveouts:              []int{0, 8 * KB, 16 * KB, 32 * KB, 64 * KB, 100 * KB, 132 * KB, 164 * KB}, // NCU 8.7: shared_mem_size_configs

		L1SharedBytes: 192 * KB, // CPG 8.7: unified L1/shared 192 KB per SM
		L2Bytes:       4 * MB,   // SPEC: Orin GPU L2 4 MB
		LineBytes:     128,      // CPG: 128-byte cache lines
		L2FetchBytes:  32,       // not measured for this part: one sector (the documented access unit)
		SectorBytes:   32,       // CPG: 32-byte sectors, the unit of a memory transaction

		ClockMHz:        1300,  // SPEC: AGX Orin 64GB GPU max 1300 MHz, 204.8 GB/s LPDDR5
		MemBandwidthGBs: 204.8, // SPEC: AGX Orin 64GB GPU max 1300 MHz, 204.8 GB/s LPDDR5
	},
	{
		Name:   "sm_89",                   // compute capability 8.9
		Major:  8,                         // NCU 8.9: cc_major
		Minor:  9,                         // NCU 8.9: cc_minor
		Family: "AD10x",                   // NCU 8.9: chip_family
		Part:   "NVIDIA GeForce RTX 4090", // reference part for SMs, clock, L2 and bandwidth

		SMs:                128,  // SPEC: RTX 4090 has 128 SMs
		WarpSize:           32,   // NCU 8.9: threads_per_warp
		MaxWarpsPerSM:      48,   // NCU 8.9: max_warps_per_sm
		MaxBlocksPerSM:     24,   // NCU 8.9: max_thread_blocks_per_sm
		MaxThreadsPerSM:    1536, // NCU 8.9: max_threads_per_sm
		MaxThreadsPerBlock: 1024, // NCU 8.9: max_thread_block_size
		BarriersPerSM:      24,   // NCU 8.9: block_barriers_per_sm
		SubPartitions:      4,    // OCC: cudaOccSubPartitionsPerMultiprocessor is 4 for cc 7.0 and later

		RegistersPerSM:       65536,  // NCU 8.9: registers_per_sm
		MaxRegsPerBlock:      65536,  // NCU 8.9: max_regs_per_block
		MaxRegsPerThread:     255,    // NCU 8.9: max_regs_per_thread
		RegAllocUnit:         256,    // NCU 8.9: reg_allocation_unit_size
		RegAllocGranularity:  "warp", // NCU 8.9: reg_allocation_granularity
		WarpAllocGranularity: 4,      // NCU 8.9: warps_allocation_granularity

		SharedPerSM:            100 * KB,                                              // NCU 8.9: smem_per_sm
		SharedPerBlock:         48 * KB,                                               // CPG: 48 KB per block without opt-in
		SharedPerBlockOptIn:    99 * KB,                                               // CPG: max opt-in shared memory per block
		ReservedSharedPerBlock: 1 * KB,                                                // CPG/OCC: the driver reserves 1 KB of shared memory per block
		SharedAllocUnit:        128,                                                   // NCU 8.9: shared_mem_allocation_unit_size
		Carveouts:              []int{0, 8 * KB, 16 * KB, 32 * KB, 64 * KB, 100 * KB}, // NCU 8.9: shared_mem_size_configs

		L1SharedBytes: 128 * KB, // CPG 8.9: unified L1/shared 128 KB per SM
		L2Bytes:       72 * MB,  // SPEC: RTX 4090 L2 72 MB
		LineBytes:     128,      // CPG: 128-byte cache lines
		L2FetchBytes:  32,       // not measured for this part: one sector (the documented access unit)
		SectorBytes:   32,       // CPG: 32-byte sectors, the unit of a memory transaction

		ClockMHz:        2520, // SPEC: RTX 4090 boost clock 2520 MHz, 1008 GB/s GDDR6X
		MemBandwidthGBs: 1008, // SPEC: RTX 4090 boost clock 2520 MHz, 1008 GB/s GDDR6X
	},
	{
		Name:   "sm_90",       // compute capability 9.0
		Major:  9,             // NCU 9.0: cc_major
		Minor:  0,             // NCU 9.0: cc_minor
		Family: "GH100",       // NCU 9.0: chip_family
		Part:   "NVIDIA H200", // reference part for SMs, clock, L2 and bandwidth

		SMs:                132,  // PROPS: numSms 132
		WarpSize:           32,   // NCU 9.0: threads_per_warp
		MaxWarpsPerSM:      64,   // NCU 9.0: max_warps_per_sm
		MaxBlocksPerSM:     32,   // NCU 9.0: max_thread_blocks_per_sm
		MaxThreadsPerSM:    2048, // NCU 9.0: max_threads_per_sm
		MaxThreadsPerBlock: 1024, // NCU 9.0: max_thread_block_size
		BarriersPerSM:      64,   // NCU 9.0: block_barriers_per_sm
		SubPartitions:      4,    // OCC: cudaOccSubPartitionsPerMultiprocessor is 4 for cc 7.0 and later

		RegistersPerSM:       65536,  // NCU 9.0: registers_per_sm
		MaxRegsPerBlock:      65536,  // NCU 9.0: max_regs_per_block
		MaxRegsPerThread:     255,    // NCU 9.0: max_regs_per_thread
		RegAllocUnit:         256,    // NCU 9.0: reg_allocation_unit_size
		RegAllocGranularity:  "warp", // NCU 9.0: reg_allocation_granularity
		WarpAllocGranularity: 4,      // NCU 9.0: warps_allocation_granularity

		SharedPerSM:            228 * KB,                                                                                      // NCU 9.0: smem_per_sm
		SharedPerBlock:         48 * KB,                                                                                       // CPG: 48 KB per block without opt-in; PROPS smemBlock 49152
		SharedPerBlockOptIn:    227 * KB,                                                                                      // CPG: max opt-in shared memory per block; PROPS optin 232448
		ReservedSharedPerBlock: 1 * KB,                                                                                        // CPG/OCC: the driver reserves 1 KB of shared memory per block; PROPS reserved 1024
		SharedAllocUnit:        128,                                                                                           // NCU 9.0: shared_mem_allocation_unit_size
		Carveouts:              []int{0, 8 * KB, 16 * KB, 32 * KB, 64 * KB, 100 * KB, 132 * KB, 164 * KB, 196 * KB, 228 * KB}, // NCU 9.0: shared_mem_size_configs

		L1SharedBytes: 256 * KB, // CPG 9.0: unified L1/shared 256 KB per SM
		L2Bytes:       62914560, // PROPS: l2 62914560
		LineBytes:     128,      // CPG: 128-byte cache lines
		L2FetchBytes:  64,       // measured: H200 strided_copy_stride32_4M reads 268 MB of DRAM for 134 MB of touched sectors (scale_sm90.json)
		L2Partitions:  2,        // measured: scripts/l2/l2probe.cu (testdata/measured/l2), two partitions joined by a fabric
		SectorBytes:   32,       // CPG: 32-byte sectors, the unit of a memory transaction

		ClockMHz:        1980, // SPEC: H200 SXM boost clock 1980 MHz, 4.8 TB/s HBM3e
		MemBandwidthGBs: 4800, // SPEC: H200 SXM boost clock 1980 MHz, 4.8 TB/s HBM3e
	},
	{
		Name:   "sm_100",      // compute capability 10.0
		Major:  10,            // NCU 10.0: cc_major
		Minor:  0,             // NCU 10.0: cc_minor
		Family: "GB10x",       // NCU 10.0: chip_family
		Part:   "NVIDIA B200", // reference part for SMs, clock, L2 and bandwidth

		SMs:                148,  // SPEC: B200 has 148 SMs
		WarpSize:           32,   // NCU 10.0: threads_per_warp
		MaxWarpsPerSM:      64,   // NCU 10.0: max_warps_per_sm
		MaxBlocksPerSM:     32,   // NCU 10.0: max_thread_blocks_per_sm
		MaxThreadsPerSM:    2048, // NCU 10.0: max_threads_per_sm
		MaxThreadsPerBlock: 1024, // NCU 10.0: max_thread_block_size
		BarriersPerSM:      64,   // NCU 10.0: block_barriers_per_sm
		SubPartitions:      4,    // OCC: cudaOccSubPartitionsPerMultiprocessor is 4 for cc 7.0 and later

		RegistersPerSM:       65536,  // NCU 10.0: registers_per_sm
		MaxRegsPerBlock:      65536,  // NCU 10.0: max_regs_per_block
		MaxRegsPerThread:     255,    // NCU 10.0: max_regs_per_thread
		RegAllocUnit:         256,    // NCU 10.0: reg_allocation_unit_size
		RegAllocGranularity:  "warp", // NCU 10.0: reg_allocation_granularity
		WarpAllocGranularity: 4,      // NCU 10.0: warps_allocation_granularity

		SharedPerSM:            228 * KB,                                                                                      // NCU 10.0: smem_per_sm
		SharedPerBlock:         48 * KB,                                                                                       // CPG: 48 KB per block without opt-in
		SharedPerBlockOptIn:    227 * KB,                                                                                      // CPG: max opt-in shared memory per block
		ReservedSharedPerBlock: 1 * KB,                                                                                        // CPG/OCC: the driver reserves 1 KB of shared memory per block
		SharedAllocUnit:        128,                                                                                           // NCU 10.0: shared_mem_allocation_unit_size
		Carveouts:              []int{0, 8 * KB, 16 * KB, 32 * KB, 64 * KB, 100 * KB, 132 * KB, 164 * KB, 196 * KB, 228 * KB}, // NCU 10.0: shared_mem_size_configs

		L1SharedBytes: 256 * KB, // CPG 10.0: unified L1/shared 256 KB per SM
		L2Bytes:       126 * MB, // SPEC: B200 L2 126 MB (as reported by the driver; modelled, not verified here)
		LineBytes:     128,      // CPG: 128-byte cache lines
		L2FetchBytes:  32,       // not measured for this part: one sector (the documented access unit)
		SectorBytes:   32,       // CPG: 32-byte sectors, the unit of a memory transaction

		ClockMHz:        1965, // SPEC: B200 boost clock about 1965 MHz, 8 TB/s HBM3e (modelled, not verified here)
		MemBandwidthGBs: 8000, // SPEC: B200 boost clock about 1965 MHz, 8 TB/s HBM3e (modelled, not verified here)
	},
	{
		Name:   "sm_120",                  // compute capability 12.0
		Major:  12,                        // NCU 12.0: cc_major
		Minor:  0,                         // NCU 12.0: cc_minor
		Family: "GB20x",                   // NCU 12.0: chip_family
		Part:   "NVIDIA GeForce RTX 5090", // reference part for SMs, clock, L2 and bandwidth

		SMs:                170,  // SPEC: RTX 5090 has 170 SMs
		WarpSize:           32,   // NCU 12.0: threads_per_warp
		MaxWarpsPerSM:      48,   // NCU 12.0: max_warps_per_sm
		MaxBlocksPerSM:     24,   // NCU 12.0: max_thread_blocks_per_sm
		MaxThreadsPerSM:    1536, // NCU 12.0: max_threads_per_sm
		MaxThreadsPerBlock: 1024, // NCU 12.0: max_thread_block_size
		BarriersPerSM:      24,   // NCU 12.0: block_barriers_per_sm
		SubPartitions:      4,    // OCC: cudaOccSubPartitionsPerMultiprocessor is 4 for cc 7.0 and later

		RegistersPerSM:       65536,  // NCU 12.0: registers_per_sm
		MaxRegsPerBlock:      65536,  // NCU 12.0: max_regs_per_block
		MaxRegsPerThread:     255,    // NCU 12.0: max_regs_per_thread
		RegAllocUnit:         256,    // NCU 12.0: reg_allocation_unit_size
		RegAllocGranularity:  "warp", // NCU 12.0: reg_allocation_granularity
		WarpAllocGranularity: 4,      // NCU 12.0: warps_allocation_granularity

		SharedPerSM:            100 * KB,                                              // NCU 12.0: smem_per_sm
		SharedPerBlock:         48 * KB,                                               // CPG: 48 KB per block without opt-in
		SharedPerBlockOptIn:    99 * KB,                                               // CPG: max opt-in shared memory per block
		ReservedSharedPerBlock: 1 * KB,                                                // CPG/OCC: the driver reserves 1 KB of shared memory per block
		SharedAllocUnit:        128,                                                   // NCU 12.0: shared_mem_allocation_unit_size
		Carveouts:              []int{0, 8 * KB, 16 * KB, 32 * KB, 64 * KB, 100 * KB}, // NCU 12.0: shared_mem_size_configs

		L1SharedBytes: 128 * KB, // CPG 12.0: unified L1/shared 128 KB per SM
		L2Bytes:       96 * MB,  // SPEC: RTX 5090 L2 96 MB
		LineBytes:     128,      // CPG: 128-byte cache lines
		L2FetchBytes:  32,       // not measured for this part: one sector (the documented access unit)
		SectorBytes:   32,       // CPG: 32-byte sectors, the unit of a memory transaction

		ClockMHz:        2407, // SPEC: RTX 5090 boost clock 2407 MHz, 1792 GB/s GDDR7
		MemBandwidthGBs: 1792, // SPEC: RTX 5090 boost clock 2407 MHz, 1792 GB/s GDDR7
	},
}
