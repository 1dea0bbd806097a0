#!/usr/bin/env python3
"""Writes testdata/measured/ptxas/manifest.txt: every launch the device host (host.cpp) makes for
the gpu/ptxas ground truth: the golden cases (their recorded input buffers), the scale cases
(random buffers, as scale_sm90.json was made), the isolating kernels (iso.cu) and the bank study
(bank.cu). Cubins are named cubin/NAME.sm_90.cubin (built on the device by ptxas_device.sh)."""
import json, os
root = os.path.join(os.path.dirname(__file__), '..')
g = os.path.join(root, 'testdata', 'golden')
out = []
def dims(v): return ' '.join(str(x) for x in v)
def scalar(a):
    t, v = a['type'], a['value']
    return {'i32': 'I4', 'u32': 'I4', 'f32': 'F4', 'f64': 'F8', 'u64': 'I8'}[t] + ':' + repr(v)
def elem(t): return {'f32': 4, 'f64': 8, 'i32': 4, 'u32': 4, 'u8': 1}[t.rstrip('*')]
cases = json.load(open(os.path.join(g, 'cases.json')))
for c in cases:
    stem = os.path.splitext(os.path.basename(c['source']))[0]
    args = []
    for a in c['args']:
        if a['type'].endswith('*'):
            args.append('D:testdata/golden/data/%s.%s.in.bin:%d' % (c['name'], a['name'], a['count'] * elem(a['type'])))
        else:
            args.append(scalar(a))
    out.append('golden.%s cubin/%s.sm_90.cubin %s %s %s %d %d %s' % (c['name'], stem, c['kernel'], dims(c['grid']), dims(c['block']), c.get('shared_bytes') or 0, len(args), ' '.join(args)))
for name, c in json.load(open(os.path.join(g, 'scale_sm90.json'))).items():
    stem = os.path.splitext(os.path.basename(c['source']))[0]
    args = []
    for a in c['args']:
        if a['type'].endswith('*'):
            t = a['type'].rstrip('*')
            args.append('R:%d:%s' % (a['count'] * elem(t), 'f' if t in ('f32', 'f64') else ('b' if t == 'u8' else 'i')))
        else:
            args.append(scalar(a))
    out.append('scale.%s cubin/%s.sm_90.cubin %s %s %s 0 %d %s' % (name, stem, c['kernel'], dims(c['grid']), dims(c['block']), len(args), ' '.join(args)))
F, I, D = 'R:65536:f', 'R:65536:i', 'R:65536:f'  # 16K floats/ints (kernels index below 4100)
iso = {
    'iso_param': [F, F, 'I4:256', 'F4:1.5'], 'iso_sreg': [I], 'iso_laneid': [I], 'iso_addr2d': [F, F, 'I4:64'],
    'iso_addr64': [F, F, 'I8:3'], 'iso_selp': [F, F, F], 'iso_minmax': [I, I, I], 'iso_pred': [F, F],
    'iso_branch': [F, F, 'I4:8'], 'iso_lds64': [F], 'iso_lds128': [F], 'iso_lds_unal': [F], 'iso_lds_row': [F, 'I4:16'],
    'iso_lds_row16': [F], 'iso_sts_merge': [F], 'iso_ldg_adj': [F, F], 'iso_ldg_vec': [F, F, F], 'iso_stg_adj': [F, F],
    'iso_libm': [F, F], 'iso_fastm': [F, F], 'iso_idiv': [I, I, 'I4:5'], 'iso_f64': ['R:65536:f', 'R:65536:f'],
    'iso_cvt': [F, I, 'R:65536:f'], 'iso_atom_shfl': [I, I], 'iso_loop': [F, F, 'I4:16'], 'iso_loop_const': [F, F],
}
for k, args in iso.items():
    out.append('iso.%s cubin/iso.sm_90.cubin %s 2 1 1 128 1 1 0 %d %s' % (k, k, len(args), ' '.join(args)))
iso3 = {  # iso3.cu (third device call)
    'iso3_uniform_branch': [F, F, 'I4:5'], 'iso3_loop_if_gmem': [I, 'I4:128'], 'iso3_guard_ld': [F, F, 'I4:200', 'F4:1.5'],
    'iso3_guard_smem': [F, F, 'I4:200'], 'iso3_guard_ld_use': [F, F, F, 'I4:200'], 'iso3_and_test': [F, F],
    'iso3_bounds2d': [F, F, 'I4:12', 'I4:10'], 'iso3_while2': [I, I, 'I4:64'], 'iso3_loop_u64': [F, F, 'I8:32'],
    'iso3_loop_u32': [F, F, 'I4:32'], 'iso3_loop_i32': [F, F, 'I4:32'],
    'iso3_guard_copy': [F, F, 'I4:200', 'F4:1.5'], 'iso3_loop_guard_ld': [F, F, 'I4:64'], 'iso3_divrem': [I, I, 'I4:7'],
    'iso3_uniform_and_tid': [F, F], 'iso3_open_guard_ld': [F, F, 'I4:200', 'I4:250'], 'iso3_open_guard_ld_use': [F, F, 'I4:200', 'I4:250'],
    'iso3_selp_imm': [F, F, I],
}
for k, args in iso3.items():
    out.append('iso3.%s cubin/iso3.sm_90.cubin %s 2 1 1 128 1 1 0 %d %s' % (k, k, len(args), ' '.join(args)))
A = 'R:4194304:f'  # 1024x1024 floats
for tag, grid in (('full', '64 64 1'), ('sm132', '12 11 1')):
    out.append('bank.smem_only.%s cubin/bank.sm_90.cubin bank_smem_only %s 16 16 1 0 2 %s I4:64' % (tag, grid, A))
    for k in ('bank_smem_gld', 'bank_smem_gld_cg', 'bank_smem_plus_gld'):
        out.append('bank.%s.%s cubin/bank.sm_90.cubin %s %s 16 16 1 0 4 %s %s I4:64 I4:1024' % (k[5:], tag, k, grid, A, A))
iso4 = {  # iso4.cu (wave 5's device call): held-out kernels, validation of rules read off real-code listings
    'iso4_loop_guard3': ('4 1 1 128 1 1', [F, F, 'I4:5000']), 'iso4_guard_fma_shfl': ('2 1 1 128 1 1', [F, F, F, 'I4:200']),
    'iso4_sdiv_warp': ('2 1 1 128 1 1', [I, I]), 'iso4_uniform_loop': ('2 1 1 128 1 1', [F, F, 'I4:16', 'I4:256']),
    'iso4_window_imad': ('2 1 1 32 8 1', [F, F]), 'iso4_atom_imm': ('2 1 1 128 1 1', [I, I]),
    'iso4_const_coef': ('2 1 1 128 1 1', [F, F]),
}
for k, (d, args) in iso4.items():
    out.append('iso4.%s cubin/iso4.sm_90.cubin %s %s 0 %d %s' % (k, k, d, len(args), ' '.join(args)))
with open(os.path.join(root, 'testdata', 'measured', 'ptxas', 'manifest.txt'), 'w') as f:
    f.write('# made by scripts/ptxas_manifest.py; run by testdata/measured/ptxas/device.sh\n')
    f.write('\n'.join(out) + '\n')
print(len(out), 'launches')
