/**
 * The shape IR trimmed to what value checking needs (runtime/tools.ts `CheckShape`), embedded in generated
 * modules: the runtime's own function (runtime/codec/check-shape.ts), so the engine and the modules agree.
 */
export { checkShapeOf } from "../../runtime/codec/check-shape.ts";
