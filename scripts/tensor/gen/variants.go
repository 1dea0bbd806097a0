package main

// variant is one mma.sync form probed on the device.
type variant struct {
	name string // file stem
	ptx  string // the instruction, without operands
}

// variants are the mma forms probed; the generator writes one kernel and one case file for each.
var variants = []variant{
	{"f16_f32_k16", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"},
	{"bf16_f32_k16", "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"},
	{"f16_f16_k16", "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16"},
	{"f16_f32_k8", "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32"},
	{"bf16_f32_k8", "mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32"},
	{"f16_f16_k8", "mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16"},
	{"tf32_k8", "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32"},
	{"tf32_k4", "mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32"},
	{"f64_k4", "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64"},
	{"s8_k32", "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32"},
	{"s8_k32_sat", "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32"},
	{"u8_k32", "mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32"},
	{"u8s8_k32_sat", "mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.s8.s32"},
	{"s8_k16", "mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32"},
	{"s8_m8n8k16", "mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32"},
}
