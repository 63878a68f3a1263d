/**
 * IR → ONNX for OpenVINO ops ONNX has native ops for — ROIAlign-9 (and ROIAlign-3), Col2Im-15,
 * DeformableConvolution-8 — judged by the engines: IRs built and serialized by OpenVINO's own
 * Python API (native-ir-ops.py: each aligned_mode ONNX spells, adaptive and fixed sampling,
 * i32 and i64 batch indices; Col2Im strides / pads / dilations, unbatched data; DeformableConvolution groups,
 * deformable groups, mask, strides / pads / dilations) are converted by ovir to ONNX and back.
 * OpenVINO on the original IR gives the expected outputs; onnxruntime on ovir's ONNX and OpenVINO
 * on ovir's IR → ONNX → IR must give the same (f32, rtol 1e-4).
 * (ONNX → IR of these ops, with MaxUnpool, SwiGLU and TensorScatter, is judged on the ONNX backend
 * cases by convert-zoo.test.ts.) Col2Im of 3 spatial dims, which IR Col2Im-15 lacks, is written
 * as its definition when image_shape and block_shape are constants: judged on test_col2im_5d's
 * data with those two inputs made initializers (the backend case itself feeds them at run time,
 * which ovir refuses). Since session 19 also GroupedMatMul-17, Xor-1, DeformableConvolution-1 (and -8
 * without bilinear_interpolation_pad) and RGBtoNV12-17 / BGRtoNV12-17; where OpenVINO's CPU plugin
 * cannot run the original IR, numpy's computation of the op in native-ir-ops.py is the reference.
 * And the detection ops ROIAlignRotated-15, NMSRotated-13, GenerateProposals-9,
 * ExperimentalDetectronROIFeatureExtractor-6, ExperimentalDetectronDetectionOutput-6 and
 * DeformablePSROIPooling-1 (DETECTION_S19), which OpenVINO's CPU plugin runs.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { convertModel } from '../../src/convert/index.js';
import { loadModel, saveModel } from '../../src/io/load.js';
import { Builder } from '../convert/builder.js';
import { makeTensor } from '../../src/graph/tensor.js';
import { compareTensors } from '../helpers/compare.js';
import { backendCases, loadDataSet } from '../helpers/testdata.js';
import { Oracle, REPO_ROOT, VENV_PYTHON, type OracleTensor, seededF32 } from '../helpers/oracle.js';

let oracle: Oracle;
let tmp: string;
let cases: Record<string, Record<string, number[]>>;
/** Expected outputs native-ir-ops.py computed with numpy, for ops OpenVINO's CPU plugin cannot run. */
let references: Record<string, { dtype: OracleTensor['dtype']; shape: number[]; data: string }[]>;

beforeAll(async () => {
  oracle = await Oracle.start();
  tmp = mkdtempSync(join(tmpdir(), 'ovir-native-ir-'));
  const script = join(REPO_ROOT, 'test', 'conformance', 'native-ir-ops.py');
  cases = JSON.parse(execFileSync(VENV_PYTHON, [script, tmp], { encoding: 'utf8' })) as typeof cases;
  references = JSON.parse(readFileSync(join(tmp, 'references.json'), 'utf8')) as typeof references;
});

afterAll(async () => {
  await oracle?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** Outputs compared by position (`#i`): an output may carry other tensor names after a round trip. */
function same(what: string, want: Record<string, OracleTensor>, got: Record<string, OracleTensor>): void {
  const byIndex = (r: Record<string, OracleTensor>): OracleTensor[] => Object.keys(r).filter((k) => /^#\d+$/.test(k)).sort((a, b) => Number(a.slice(1)) - Number(b.slice(1))).map((k) => r[k]!);
  const w = byIndex(want);
  const g = byIndex(got);
  expect(g.length, what).toBe(w.length);
  const diffs = w.flatMap((t, i) => { const d = compareTensors(g[i]!, t); return d ? [`${what} output ${i}: ${d}`] : []; });
  expect(diffs).toEqual([]);
}

const NAMES = [
  'roialign_asymmetric_s0', 'roialign_asymmetric_s2', 'roialign_half_pixel_for_nn_s0', 'roialign_half_pixel_for_nn_s2', 'roialign_v3',
  'col2im_plain', 'col2im_strides_pads', 'col2im_dilations', 'col2im_unbatched',
  'deform_basic', 'deform_mask_pads', 'deform_strides_dil',
];

/**
 * OpenVINO on the IR native-ir-ops.py wrote gives the expected outputs; onnxruntime on ovir's ONNX
 * (which onnx's checker accepts) and OpenVINO on ovir's IR → ONNX → IR must give the same. For an
 * op OpenVINO's CPU plugin cannot run (`unrunnable`: its refusal is asserted, so a release that runs
 * it makes the case fail until it is judged by OpenVINO again), the expected outputs are numpy's
 * computation of the op's definition in native-ir-ops.py on the same inputs.
 */
async function judgeWith(name: string, unrunnable?: RegExp): Promise<void> {
    const shapes = cases[name];
    expect(shapes, `native-ir-ops.py wrote ${name}`).toBeDefined();
    const inputs = Object.fromEntries(Object.entries(shapes!).map(([k, s], i) => [k, seededF32(s, i + 1)]));
    const xml = join(tmp, `${name}.xml`);
    let want: Record<string, OracleTensor>;
    if (unrunnable) {
      await expect(oracle.runIr(xml, inputs), 'OpenVINO cannot run the original IR').rejects.toThrow(unrunnable);
      const ref = references[name];
      expect(ref, `native-ir-ops.py computed ${name} with numpy`).toBeDefined();
      want = Object.fromEntries(ref!.map((t, i) => [`#${i}`, { dtype: t.dtype, shape: t.shape, data: new Uint8Array(Buffer.from(t.data, 'base64')) }]));
    } else {
      want = await oracle.runIr(xml, inputs);
    }
    const onnx = join(tmp, `${name}.ovir.onnx`);
    saveModel(convertModel(loadModel(xml)), onnx);
    const check = await oracle.onnxCheck(onnx);
    expect(check.error ?? null).toBeNull();
    same('onnxruntime on IR → ONNX', want, await oracle.runOrt(onnx, inputs));
    const back = join(tmp, `${name}.back.xml`);
    saveModel(convertModel(loadModel(onnx)), back);
    same('OpenVINO on IR → ONNX → IR', want, await oracle.runIr(back, inputs));
}

const judge = (name: string): Promise<void> => judgeWith(name);

describe('ROIAlign / Col2Im / DeformableConvolution IR → ONNX: onnxruntime agrees with OpenVINO on the IR', () => {
  it.each(NAMES)('%s', judge);
});

/** IR-only ops (and older IR versions of ops ovir reads) that ovir writes as ONNX subgraphs. */
const IR_ONLY = [
  'scatter_update_axis0', 'scatter_update_axis1', 'scatter_update_neg_axis', 'scatter_update_axis1_2d_idx',
  'bucketize_right_i64', 'bucketize_left_i32', 'search_sorted_left', 'search_sorted_right', 'search_sorted_batched',
  'roll_2d', 'roll_repeated_axis', 'roll_scalar_shift', 'roll_last', 'shuffle_channels', 'shuffle_channels_neg_axis', 'grn_3d', 'grn_4d',
  'embedding_bag_packed_sum', 'embedding_bag_packed_sum_weights', 'embedding_bag_packed_mean',
  'embedding_bag_offsets_sum', 'embedding_bag_offsets_no_default', 'embedding_bag_offsets_mean',
  'embedding_segments_sum', 'embedding_segments_sum_no_default',
  'slice_scatter_step', 'slice_scatter_negative', 'slice_scatter_no_axes',
  'interpolate4_nearest_scales', 'interpolate4_linear_sizes', 'interpolate4_cubic_sizes_align', 'interpolate4_linear_sizes_other_scales', 'range_v1',
  ...['nearest_ac_hw3d', 'nearest_ac_one_axis', 'nearest_noac_hw3d', 'nearest_noac_one_axis', 'linear_ac_nchw', 'linear_ac_hw3d', 'linear_ac_one_axis',
    'linear_noac_nchw', 'linear_noac_hw3d', 'linear_noac_one_axis', 'cubic_ac_nchw', 'cubic_ac_one_axis', 'cubic_noac_nchw', 'cubic_noac_one_axis'].map((c) => `interpolate1_${c}`),
  'adaptive_avg_2d', 'adaptive_avg_1d', 'adaptive_avg_3d', 'adaptive_avg_global', 'adaptive_avg_dynamic', 'adaptive_max_2d', 'adaptive_max_dynamic',
  'space_to_batch', 'batch_to_space', 'space_to_batch_3d_no_pads', 'batch_to_space_dynamic_batch', 'space_to_batch_dynamic_batch',
  'segment_max_zero', 'segment_max_lowest', 'segment_max_no_count', 'segment_max_i32_lowest',
  'nms_v1', 'nms_v3_i32', 'nms_v4_two_batches',
  'mvn_v0_across', 'mvn_v0_per_channel', 'mvn_v0_mean_only',
  'fake_convert_e4m3', 'fake_convert_e5m2_no_shift', 'fake_convert_e4m3_no_shift',
  'promote_f32_i16', 'promote_f32_i32_unsafe', 'promote_u8_i32', 'promote_u16_i8_unsafe', 'promote_pytorch_scalar', 'promote_f16_bf16_unsafe', 'promote_u64_i32_target',
  'reorg_yolo_s2', 'reorg_yolo_s3_batch2', 'region_yolo_v2', 'region_yolo_v2_axis2', 'region_yolo_v3', 'region_yolo_v3_extra_channels',
  'extract_patches_valid', 'extract_patches_same_upper', 'extract_patches_same_lower', 'extract_patches_rates',
  'ctc_seqlen_default', 'ctc_seqlen_blank0_no_merge_i64', 'ctc_seqlen_blank2_i64_len', 'ctc_greedy_v1', 'ctc_greedy_v1_no_merge',
  'roi_pooling_max', 'roi_pooling_max_scaled',
  'nv12_rgb_two_planes_u8', 'nv12_bgr_one_plane_f32', 'i420_rgb_three_planes_u8', 'i420_bgr_one_plane_u8',
  'prior_box_clustered', 'prior_box_clustered_steps',
  'batch_norm_v0', 'topk_v1', 'topk_v3_min_i64', 'shapeof_v1', 'broadcast_v1_numpy', 'gelu_v2', 'not_equal', 'squared_difference', 'is_finite',
];

describe('IR-only ops IR → ONNX as subgraphs: onnxruntime agrees with OpenVINO on the IR', () => {
  it.each(IR_ONLY)('%s', judge);
});

/** s8-irmore: IR-only ops written as longer ONNX subgraphs (a summed-area table, Loops, …). */
const IR_ONLY_SUBGRAPHS = [
  'psroi_average', 'psroi_average_scale1_g2', 'psroi_average_g1', 'psroi_bilinear', 'psroi_bilinear_g1', 'psroi_bilinear_scaled',
  'psroi_average_runtime_rois', 'psroi_bilinear_runtime_rois',
  'gather_tree_i32', 'gather_tree_f32', 'gather_tree_one_beam',
  'istft_batch', 'istft_center_normalized', 'istft_unbatched_odd', 'istft_length_short', 'istft_length_long',
  'inverse_batch', 'inverse_adjoint', 'inverse_single',
  'sparse_fill_empty_rows', 'sparse_fill_empty_rows_runtime',
  'ctc_loss_default', 'ctc_loss_no_merge', 'ctc_loss_collapse', 'ctc_loss_unique_blank0', 'ctc_loss_collapse_no_merge_blank2',
];

describe('IR-only ops IR → ONNX as longer subgraphs: onnxruntime agrees with OpenVINO on the IR', () => {
  it.each(IR_ONLY_SUBGRAPHS)('%s', judge);
});

/** s8-ssd: PriorBox-1/8 (a constant at conversion) and DetectionOutput-1/8 (an ONNX subgraph). */
const SSD = [
  'prior_box_v8_ratios_first', 'prior_box_v8_min_max_first', 'prior_box_v1', 'prior_box_not_scale_all', 'prior_box_fixed_density', 'prior_box_fixed_ratio',
  'detection_output_center_share', 'detection_output_corner_per_class', 'detection_output_variance_in_target', 'detection_output_not_normalized',
  'detection_output_mxnet', 'detection_output_v1', 'detection_output_arm', 'detection_output_dynamic_images', 'detection_output_f16', 'ssd300_head',
];

describe('SSD head IR → ONNX: onnxruntime agrees with OpenVINO on the IR', () => {
  it.each(SSD)('%s', judge);
});

/** s8-nms: OpenVINO's detection post-processing ops (mappings/object_detection/multiclass-nms.ts, …). */
const DETECTION_POST = [
  'mcnms8_score_across', 'mcnms8_classid_bg_i32', 'mcnms9_none_unnormalized_eta', 'mcnms9_classid_across',
  'mcnms9_roisnum_score', 'mcnms9_roisnum_classid_across_i64',
  'matrix_nms_linear_score_across', 'matrix_nms_gaussian_classid_bg_i32', 'matrix_nms_linear_unnormalized_none', 'matrix_nms_gaussian_classid_across',
  'proposal_v1_caffe_padded', 'proposal_v1_caffe_two_batches_clip_after', 'proposal_v4_tensorflow',
  'ed_topk_rois', 'ed_topk_rois_all', 'ed_prior_grid_flat', 'ed_prior_grid_attrs', 'ed_prior_grid_uneven_steps',
  'ed_generate_proposals_padded', 'ed_generate_proposals_full',
];

describe('Detection post-processing IR → ONNX: onnxruntime agrees with OpenVINO on the IR', () => {
  it.each(DETECTION_POST)('%s', judge);
});

/**
 * s19-irops: GroupedMatMul-17. OpenVINO 2026.4's CPU plugin runs it only with constant weights (as
 * its GatherMatmul; failing on rows after the last offset); with run-time weights it cannot
 * ("Unsupported operation of type: GroupedMatMul"; the op has no evaluate either): there the
 * reference is numpy's (a skip for the reference engine, judged all the same).
 */
const GROUPED_MATMUL_RUNTIME_WEIGHTS = ['grouped_matmul_3d', 'grouped_matmul_2d_i32', 'grouped_matmul_2d_i64_tail', 'grouped_matmul_2d_one_group'];
const IR_OPS_S19 = [
  'grouped_matmul_const_weights', 'grouped_matmul_3d_const_weights', 'xor_v0',
  'deform_v1_basic', 'deform_v1_groups_pads', 'deform_v1_strides_dil', 'deform_v8_no_pad_mask',
];

describe('GroupedMatMul-17 with run-time weights IR → ONNX (OpenVINO cannot run it): onnxruntime and OpenVINO on IR → ONNX → IR agree with numpy', () => {
  it.each(GROUPED_MATMUL_RUNTIME_WEIGHTS)('%s', (name) => judgeWith(name, /Unsupported operation of type: GroupedMatMul/));
});

/** RGBtoNV12-17 / BGRtoNV12-17: no CPU kernel and no evaluate in OpenVINO 2026.4: numpy computes its reference. */
const TO_NV12 = ['rgb_to_nv12_one_plane_f32', 'bgr_to_nv12_two_planes_f32', 'rgb_to_nv12_two_planes_u8', 'bgr_to_nv12_one_plane_u8'];

describe('RGBtoNV12-17 / BGRtoNV12-17 IR → ONNX (OpenVINO cannot run them): onnxruntime and OpenVINO on IR → ONNX → IR agree with numpy', () => {
  it.each(TO_NV12)('%s', (name) => judgeWith(name, /(RGB|BGR)toNV12/));
});

describe('IR ops IR → ONNX read since session 19: onnxruntime agrees with OpenVINO on the IR', () => {
  it.each(IR_OPS_S19)('%s', judge);
});

describe('Col2Im of 3 spatial dims with constant shapes: OpenVINO computes test_col2im_5d\'s expected output', () => {
  const bc = backendCases({ filter: /^onnx\/node\/test_col2im_5d$/ })[0];
  it.skipIf(!bc)('test_col2im_5d, image_shape and block_shape as initializers', async () => {
    const ds = loadDataSet(bc!.dataSets[0]!);
    const [x, image, block] = ds.inputs.map((t) => t.tensor);
    const b = new Builder('onnx', 18);
    const ins = [
      b.input('x', 'f32', x!.shape),
      b.init('image_shape', makeTensor('i64', image!.shape, image!.data)),
      b.init('block_shape', makeTensor('i64', block!.shape, block!.data)),
    ];
    b.output(b.node(b.graph, 'Col2Im', ins, ['y'], {}, { name: 'col2im' }).outputs[0]!);
    const xml = join(tmp, 'col2im_5d_const.xml');
    saveModel(convertModel(b.model), xml);
    const got = Object.values(await oracle.runIr(xml, { x: x! }));
    expect(compareTensors(got[0]!, ds.outputs[0]!.tensor)).toBeNull();
  });
});

/**
 * s19-det: the detection ops IR → ONNX read last (mappings/object_detection/roi-align-rotated.ts,
 * nms-rotated.ts, generate-proposals.ts, …).
 */
const DETECTION_S19 = [
  'roi_align_rotated_adaptive_cw', 'roi_align_rotated_s2_ccw_half_scale', 'roi_align_rotated_adaptive_ccw_scaled', 'roi_align_rotated_s1_one_bin',
  'roi_align_rotated_runtime_rois_adaptive', 'roi_align_rotated_runtime_rois_s3',
  'nms_rotated_sorted_cw', 'nms_rotated_by_class_ccw', 'nms_rotated_few_i32', 'nms_rotated_low_iou_by_class',
  'nms_rotated_ties_identical_sorted', 'nms_rotated_ties_identical_by_class',
  'generate_proposals_unnormalized', 'generate_proposals_normalized_hw_scales', 'generate_proposals_few_i32',
  'ed_roi_feature_extractor_s2', 'ed_roi_feature_extractor_adaptive_aligned',
  'ed_detection_output_overflow', 'ed_detection_output_class_order',
  'deformable_psroi_offsets', 'deformable_psroi_no_offsets_runtime_rois',
];

describe('Detection ops IR → ONNX read since session 19: onnxruntime agrees with OpenVINO on the IR', () => {
  it.each(DETECTION_S19)('%s', judge);
});
