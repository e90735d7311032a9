import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type SerializerFactory = ReturnType<typeof SerializerSelector>;
type Serializer = ReturnType<ReturnType<SerializerFactory>>;

/** Every response schema's serializer, compiled once per process whatever the number of apps built in it. */
const compiled = new WeakMap<object, Serializer>();

/**
 * Fastify's own serializer compiler, each schema compiled once: the routes' response schemas are module constants, so a
 * process that builds the app more than once (a test process builds one for each of its test files) reuses the code
 * fast-json-stringify generated for the first, which is most of the CPU an app's start costs. Every app of a process
 * has the same serializer options (buildApp's), the other input of that code.
 */
export function reusedSerializers(): SerializerFactory {
  const factory = SerializerSelector();
  return (externalSchemas, options) => {
    const compile = factory(externalSchemas, options);
    return (route) => {
      const schema = route.schema;
      if (typeof schema !== 'object' || schema === null) return compile(route);
      let serializer = compiled.get(schema);
      if (serializer === undefined) {
        serializer = compile(route);
        compiled.set(schema, serializer);
      }
      return serializer;
    };
  };
}
