import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

type SerializerFactory = ReturnType<typeof SerializerSelector>;
type Serializer = ReturnType<ReturnType<SerializerFactory>>;

/** Every response schema's serializer, by the schema's JSON text, compiled once per process. */
const compiled = new Map<string, Serializer>();

/**
 * Fastify's own serializer compiler, each schema compiled once: a process that builds the app more than once (a test
 * process builds one for each of its test files) reuses the code fast-json-stringify generated for the first, which is
 * most of the CPU an app's start costs. Schemas are told apart by their JSON text, since several route plugins build
 * theirs anew at each registration; every app of a process has the same serializer options (buildApp's), the other
 * input of that code.
 */
export function reusedSerializers(): SerializerFactory {
  const factory = SerializerSelector();
  return (externalSchemas, options) => {
    const compile = factory(externalSchemas, options);
    return (route) => {
      const text = JSON.stringify(route.schema);
      let serializer = compiled.get(text);
      if (serializer === undefined) {
        serializer = compile(route);
        compiled.set(text, serializer);
      }
      return serializer;
    };
  };
}
