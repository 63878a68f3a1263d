import { out, type Rule } from '../../rule.js';

/**
 * ImageDecoder-20 (onnx/defs/image): a uint8 [H, W, C] image, every dim known only at run time
 * (onnx's inference; an undecodable stream gives an empty tensor), from a 1-D uint8 stream.
 */
export const onnxImageRules: Rule[] = [
  {
    dialect: 'onnx', op: 'ImageDecoder', since: 20, infer: (c) => {
      const x = c.shape(0);
      if (x !== null && x.length !== 1) c.error(`encoded_stream must be 1-D, not rank ${x.length}`);
      return [out('u8', [null, null, null])];
    },
  },
];
