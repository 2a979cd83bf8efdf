/**
 * JSON Schema string enums ⇄ protobuf enum numbers. The .proto files number each enum's values in schema order
 * from 0 (the proto3 zero value is the first schema value), so the schema's value list is the whole mapping.
 */
export interface EnumMap<S extends string> {
  toProto(value: S): number;
  fromProto(n: number): S;
}

export function enumMap<S extends string>(name: string, values: readonly S[]): EnumMap<S> {
  const byValue = new Map<string, number>(values.map((v, i) => [v, i]));
  return {
    toProto(value) {
      const n = byValue.get(value);
      // an unknown value would otherwise travel as 0, i.e. silently become the first value
      if (n === undefined) throw new Error(`${name}: ${JSON.stringify(value)} is not one of ${values.join(", ")}`);
      return n;
    },
    fromProto(n) {
      const v = values[n];
      // proto3 enums are open: a newer writer may send a number this reader does not know
      if (v === undefined) throw new Error(`${name}: unknown enum number ${n}`);
      return v;
    },
  };
}
