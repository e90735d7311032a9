import type { Model } from 'mongoose';

/**
 * A document ready for the driver's insert: every field cast by the model, with its defaults, validated as create()
 * would, and timestamps; but the customer's own objects (tags, data) as they came. Mongoose drops the keys
 * `constructor` and `prototype` anywhere in a document it builds, even inside a Mixed path, against prototype
 * pollution; a customer may name a tag or a data key so (CONTRACTS §4), and a 200 must not lose it. Such documents
 * are read with lean(), which keeps every key.
 */
export async function customerKeyedDocument<Doc, Fields extends object>(
  model: Model<Doc>,
  fields: Fields,
  customerKeyed: readonly (keyof Fields & string)[],
): Promise<Doc> {
  const built = new model(fields);
  await built.validate();
  const now = new Date();
  const document: Record<string, unknown> = model.schema.get('timestamps') ? { createdAt: now, updatedAt: now } : {};
  Object.assign(document, built.toObject());
  for (const key of customerKeyed) if (fields[key] !== undefined) document[key] = fields[key];
  return document as Doc;
}
