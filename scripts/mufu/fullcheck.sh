#!/bin/bash
# fullcheck.sh [FUNCS] : the model of every .approx f32 function against the
# H200's checksums on all 512 buckets (2^32 inputs each); prints, per function,
# the buckets reproduced bit for bit. Takes about 2 CPU-minutes a function.
cd "$(dirname "$0")/../.." || exit 1
F=${1:-rcp.approx.f32,rcp.approx.ftz.f32,rsqrt.approx.f32,rsqrt.approx.ftz.f32,sqrt.approx.f32,sqrt.approx.ftz.f32,ex2.approx.f32,ex2.approx.ftz.f32,lg2.approx.f32,lg2.approx.ftz.f32,sin.approx.f32,sin.approx.ftz.f32,cos.approx.f32,cos.approx.ftz.f32,tanh.approx.f32}
KS_MUFU_EXPLORE=$F KS_MUFU_BUCKETS=all go test ./gpu/arith/ -run TestMufuAllBuckets -v -count=1 -timeout 3h
