#!/usr/bin/env bash
# GPU checks of wgmma kernels beyond the proof manifest: ttgir-run -check
# (layout-translate's PTX against the reference interpreter) on the
# before/after corpus's sm_90 kernels with warp_group_dot.
# usage: checks.sh [EXTRA_FLAGS…]   (-cpu to try the arguments on the CPU)
cd "$(dirname "$0")"
R=bundle/bin/ttgir-run
B=rand:f16:256x256
F="-rtol 0.01 -atol 0.05"
ck() { k=$1; shift; if [ "${1:-}" = "" ]; then :; fi
	if [ "$CPU" = 1 ]; then $R extra/$k.post.ttgir "$@" -cpu >/dev/null 2>&1; echo "$k cpu rc=$?"; return; fi
	$R extra/$k.post.ttgir "$@" -ptx extra/$k.post.ptx -meta extra/$k.post.meta.json -check $F -q > /tmp/ck.txt 2>&1; rc=$?
	echo "$k check rc=$rc $(tail -c 300 /tmp/ck.txt | tr '\n' ' ')"; }
att="-arg q_ptr=$B -arg k_ptr=$B -arg v_ptr=$B -arg o_ptr=zeros:f16:256x256 -arg stride=256"
ck flashattn_128x128x64_sm90_w8 $att -arg N_CTX=256 -arg sm_scale=0.125 -grid 2
ck flashattn_causal_128x64x64_sm90_w8 $att -arg N_CTX=256 -arg sm_scale=0.125 -grid 2
ck attention_64x64x64_sm90_w4 $att -arg sm_scale=0.125 -grid 2
ck attention_128x64x32_sm90_w8 $att -arg sm_scale=0.125 -grid 2
ck dot_chain_64x128x64_f16_sm90_w4 -arg a_ptr=$B -arg b_ptr=$B -arg d_ptr=$B -arg o_ptr=zeros:f32:256x256 -arg stride=256 -grid 1
ck matmul_tf32_rowsum_64x64x32_sm90_w4 -arg a_ptr=rand:f32:256x256 -arg b_ptr=rand:f32:256x256 -arg c_ptr=zeros:f32:256x256 -arg rs_ptr=zeros:f32:256 -arg stride=256 -grid 1
ck matmul_bias_64x64x32_f16_sm90_w4 -arg a_ptr=rand:f16:128x128 -arg b_ptr=rand:f16:128x128 -arg bias_ptr=rand:f32:128 -arg c_ptr=zeros:f16:128x128 -arg M=128 -arg N=128 -arg K=128 -arg stride_am=128 -arg stride_bk=128 -arg stride_cm=128 -grid 2,2
ck dot_trans_b_64x128x64_f16_sm90_w4 -arg a_ptr=$B -arg b_ptr=$B -arg c_ptr=zeros:f32:256x256 -arg stride=256 -grid 1
ck l2norm_dot_128x64x32_f16_sm90_w8 -arg a_ptr=$B -arg b_ptr=$B -arg c_ptr=zeros:f32:256x256 -arg stride=256 -grid 1
