import { readFileSync } from "node:fs";
import { InvalidInputError } from "@hs/spec";
import protobuf from "protobufjs";
import type { z } from "zod";
import type { Datum, TensorData } from "./datum.js";
import type { forwardBackwardRequestSchema } from "./requests.js";

/** Content type of a protobuf forward_backward body (SDK 0.25 `resources/training.py`). */
export const protobufContentType = "application/x-protobuf";

/** The SDK version from which forward_backward is sent as protobuf only. */
export const firstProtobufSdkVersion = "0.25.0";

const protoSource = readFileSync(new URL("./tinker-wire.proto", import.meta.url), "utf8");
const root = protobuf.parse(protoSource, { keepCase: true }).root;
/** The compiled `tinker-wire.proto` (snake_case field names, as on the wire). */
export const tinkerWireRoot: protobuf.Root = root;
const requestType = root.lookupType("tinker_public.ForwardBackwardRequest");
const sampleResponseType = root.lookupType("tinker_public.SampleResponse");
const forwardBackwardOutputType = root.lookupType("tinker_public.ForwardBackwardOutput");
const dtypes = { float32: 1, int64: 2 } as const;

type ForwardBackwardBody = z.infer<typeof forwardBackwardRequestSchema>;

/** Whether `sdkVersion` (major.minor.patch) sends forward_backward as protobuf. */
export function sendsProtobuf(sdkVersion: string): boolean {
  const parts = (version: string) => version.split(".").map((part) => Number.parseInt(part, 10) || 0);
  const [a = 0, b = 0, c = 0] = parts(sdkVersion);
  const [x = 0, y = 0, z = 0] = parts(firstProtobufSdkVersion);
  return a !== x ? a > x : b !== y ? b > y : c >= z;
}

function packed(values: readonly number[], dtype: "int32" | "int64" | "float32"): Uint8Array {
  const bytes = new Uint8Array(values.length * (dtype === "int64" ? 8 : 4));
  const view = new DataView(bytes.buffer);
  values.forEach((value, index) => {
    if (dtype === "int64") view.setBigInt64(index * 8, BigInt(Math.trunc(value)), true);
    else if (dtype === "int32") view.setInt32(index * 4, value, true);
    else view.setFloat32(index * 4, value, true);
  });
  return bytes;
}

function unpacked(bytes: Uint8Array, dtype: "int32" | "int64" | "float32"): number[] {
  const size = dtype === "int64" ? 8 : 4;
  if (bytes.byteLength % size !== 0) {
    throw new InvalidInputError(`${bytes.byteLength} bytes are not a whole number of ${dtype} values`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return Array.from({ length: bytes.byteLength / size }, (_, index) => {
    if (dtype === "int64") return Number(view.getBigInt64(index * 8, true));
    return dtype === "int32" ? view.getInt32(index * 4, true) : view.getFloat32(index * 4, true);
  });
}

function tensorMessage(tensor: TensorData) {
  const dtype = tensor.dtype ?? (tensor.data.every(Number.isInteger) ? "int64" : "float32");
  return {
    dense: packed(tensor.data, dtype),
    dtype: dtypes[dtype],
    ...(tensor.shape === undefined || tensor.shape === null ? {} : { shape: tensor.shape }),
  };
}

/** Encodes a forward_backward body as the SDK 0.25 protobuf (`tinker-wire.proto`). */
export function encodeForwardBackward(body: ForwardBackwardBody): Uint8Array {
  const input = body.forward_backward_input;
  const message = requestType.fromObject({
    model_id: body.model_id,
    seq_id: body.seq_id ?? 0,
    loss_fn: input.loss_fn,
    loss_fn_config: input.loss_fn_config ?? {},
    data: input.data.map((datum) => ({
      model_input: datum.model_input.chunks.map((chunk) => ({
        encoded_text: { tokens: packed(chunk.tokens, "int32") },
      })),
      loss_fn_inputs: Object.fromEntries(
        Object.entries(datum.loss_fn_inputs).map(([name, tensor]) => [name, tensorMessage(tensor)]),
      ),
    })),
  });
  return requestType.encode(message).finish();
}

interface TensorMessage {
  dense?: Uint8Array;
  sparse_csr?: unknown;
  dtype?: number;
  shape?: (number | { toNumber(): number })[];
}

function tensorData(name: string, message: TensorMessage): TensorData {
  if (message.sparse_csr !== undefined && message.sparse_csr !== null) {
    throw new InvalidInputError(`loss_fn_inputs.${name}: sparse tensors are not read`);
  }
  const dtype =
    message.dtype === dtypes.int64 ? "int64" : message.dtype === dtypes.float32 ? "float32" : undefined;
  if (dtype === undefined)
    throw new InvalidInputError(`loss_fn_inputs.${name}: dtype ${message.dtype} is not read`);
  const data = unpacked(message.dense ?? new Uint8Array(), dtype);
  const shape = (message.shape ?? []).map((value) => (typeof value === "number" ? value : value.toNumber()));
  return { data, dtype, ...(shape.length === 0 ? {} : { shape }) };
}

/** Decodes an SDK 0.25 protobuf forward_backward body into the JSON body's shape. */
export function decodeForwardBackward(bytes: Uint8Array): ForwardBackwardBody & { forward_only: boolean } {
  const message = requestType.toObject(requestType.decode(bytes), { defaults: true }) as {
    model_id: string;
    seq_id: number;
    loss_fn: string;
    loss_fn_config: Record<string, number>;
    forward_only: boolean;
    data: {
      model_input: { encoded_text?: { tokens: Uint8Array } }[];
      loss_fn_inputs: Record<string, TensorMessage>;
    }[];
  };
  const data: Datum[] = message.data.map((datum, index) => ({
    model_input: {
      chunks: datum.model_input.map((chunk) => {
        if (chunk.encoded_text === undefined) {
          throw new InvalidInputError(`data.${index}: only encoded_text chunks are read`);
        }
        return { type: "encoded_text" as const, tokens: unpacked(chunk.encoded_text.tokens, "int32") };
      }),
    },
    loss_fn_inputs: Object.fromEntries(
      Object.entries(datum.loss_fn_inputs).map(([name, tensor]) => [name, tensorData(name, tensor)]),
    ),
  }));
  return {
    model_id: message.model_id,
    seq_id: message.seq_id,
    forward_only: message.forward_only,
    forward_backward_input: {
      data,
      loss_fn: message.loss_fn as ForwardBackwardBody["forward_backward_input"]["loss_fn"],
      ...(Object.keys(message.loss_fn_config).length === 0 ? {} : { loss_fn_config: message.loss_fn_config }),
    },
  };
}

/** A future's result as the SDK 0.25 protobuf, for the two result types it asks for so; else undefined. */
export function encodeResult(result: unknown): Uint8Array | undefined {
  const value = result as Record<string, unknown> | null | undefined;
  if (value === null || value === undefined || typeof value !== "object") return undefined;
  if (Array.isArray(value.sequences)) return encodeSampleResult(value as unknown as SampleResultBody);
  if (Array.isArray(value.loss_fn_outputs))
    return encodeForwardBackwardResult(value as unknown as ForwardBackwardResultBody);
  return undefined;
}

interface SampleResultBody {
  sequences: { stop_reason: "stop" | "length"; tokens: number[]; logprobs?: number[] | null }[];
}

interface ForwardBackwardResultBody {
  loss_fn_output_type: string;
  loss_fn_outputs: Record<string, TensorData>[];
  metrics: Record<string, number>;
}

function encodeSampleResult(result: SampleResultBody): Uint8Array {
  const message = sampleResponseType.fromObject({
    sequences: result.sequences.map((sequence) => ({
      stop_reason: sequence.stop_reason === "length" ? 1 : 0,
      tokens: packed(sequence.tokens, "int32"),
      ...(sequence.logprobs === null || sequence.logprobs === undefined
        ? {}
        : { logprobs: packed(sequence.logprobs, "float32") }),
    })),
  });
  return sampleResponseType.encode(message).finish();
}

/** One batched record: each field's values of every datum, with byte offsets (as SkyRL serializes). */
function encodeForwardBackwardResult(result: ForwardBackwardResultBody): Uint8Array {
  const names = [...new Set(result.loss_fn_outputs.flatMap((output) => Object.keys(output)))];
  const fields = Object.fromEntries(
    names.map((name) => {
      const tensors = result.loss_fn_outputs.map((output) => output[name]);
      const dtype = tensors[0]?.dtype ?? "float32";
      const size = dtype === "int64" ? 8 : 4;
      const offsets: number[] = [0];
      for (const tensor of tensors) offsets.push((offsets.at(-1) ?? 0) + (tensor?.data.length ?? 0) * size);
      return [
        name,
        {
          data: packed(
            tensors.flatMap((tensor) => tensor?.data ?? []),
            dtype,
          ),
          offsets: packed(offsets, "int64"),
          dtype: dtypes[dtype],
        },
      ];
    }),
  );
  const message = forwardBackwardOutputType.fromObject({
    loss_fn_output_type: result.loss_fn_output_type,
    loss_fn_outputs: [
      { type_tag: result.loss_fn_output_type, fields, num_datums: result.loss_fn_outputs.length },
    ],
    metrics: result.metrics,
  });
  return forwardBackwardOutputType.encode(message).finish();
}
