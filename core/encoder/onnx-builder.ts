/**
 * Small builders over the ONNX protobuf schema (the `onnx-proto` package's protobufjs classes),
 * enough to write inference graphs by hand: initializers, nodes, typed graph inputs/outputs
 * with symbolic dimensions, and the serialized ModelProto.
 */
import onnxProto from "onnx-proto"

const { onnx } = onnxProto
export { onnx }

export const onnxIrVersion = 8
export const onnxOpsetVersion = 17

type Dim = number | string

export const floatTensor = (name: string, dims: ReadonlyArray<number>, values: Float32Array) =>
  onnx.TensorProto.create({
    name,
    dims: [...dims],
    dataType: onnx.TensorProto.DataType.FLOAT,
    // Little-endian raw bytes, as ONNX requires (every platform Node runs on here is little-endian).
    rawData: new Uint8Array(values.buffer, values.byteOffset, values.byteLength)
  })

export const int64Tensor = (name: string, dims: ReadonlyArray<number>, values: ReadonlyArray<number>) =>
  onnx.TensorProto.create({ name, dims: [...dims], dataType: onnx.TensorProto.DataType.INT64, int64Data: [...values] })

type Attribute = { readonly ints: ReadonlyArray<number> } | { readonly i: number } | { readonly f: number }

export const node = (
  opType: string,
  inputs: ReadonlyArray<string>,
  outputs: ReadonlyArray<string>,
  attributes: Readonly<Record<string, Attribute>> = {}
) =>
  onnx.NodeProto.create({
    opType,
    name: outputs[0],
    input: [...inputs],
    output: [...outputs],
    attribute: Object.entries(attributes).map(([name, a]) =>
      "ints" in a
        ? onnx.AttributeProto.create({ name, type: onnx.AttributeProto.AttributeType.INTS, ints: [...a.ints] })
        : "i" in a
          ? onnx.AttributeProto.create({ name, type: onnx.AttributeProto.AttributeType.INT, i: a.i })
          : onnx.AttributeProto.create({ name, type: onnx.AttributeProto.AttributeType.FLOAT, f: a.f })
    )
  })

export const tensorValue = (name: string, elemType: "float" | "int64", shape: ReadonlyArray<Dim>) =>
  onnx.ValueInfoProto.create({
    name,
    type: onnx.TypeProto.create({
      tensorType: onnx.TypeProto.Tensor.create({
        elemType: elemType === "float" ? onnx.TensorProto.DataType.FLOAT : onnx.TensorProto.DataType.INT64,
        shape: onnx.TensorShapeProto.create({
          dim: shape.map((d) =>
            typeof d === "number"
              ? onnx.TensorShapeProto.Dimension.create({ dimValue: d })
              : onnx.TensorShapeProto.Dimension.create({ dimParam: d })
          )
        })
      })
    })
  })

export interface GraphParts {
  readonly name: string
  readonly doc?: string
  readonly nodes: ReadonlyArray<ReturnType<typeof node>>
  readonly initializers: ReadonlyArray<ReturnType<typeof floatTensor>>
  readonly inputs: ReadonlyArray<ReturnType<typeof tensorValue>>
  readonly outputs: ReadonlyArray<ReturnType<typeof tensorValue>>
  readonly metadata?: Readonly<Record<string, string>>
}

/** Serializes a single-graph model on the default ONNX domain. */
export const encodeOnnxModel = (g: GraphParts): Uint8Array =>
  onnx.ModelProto.encode(
    onnx.ModelProto.create({
      irVersion: onnxIrVersion,
      producerName: "patent-intelligence",
      producerVersion: "1",
      docString: g.doc ?? "",
      opsetImport: [onnx.OperatorSetIdProto.create({ domain: "", version: onnxOpsetVersion })],
      metadataProps: Object.entries(g.metadata ?? {}).map(([key, value]) =>
        onnx.StringStringEntryProto.create({ key, value })
      ),
      graph: onnx.GraphProto.create({
        name: g.name,
        node: [...g.nodes],
        initializer: [...g.initializers],
        input: [...g.inputs],
        output: [...g.outputs]
      })
    })
  ).finish()
