/**
 * A model's inferred document type with its Mixed paths typed. Mongoose types a Mixed path as any; the value stored
 * there was checked against a TypeBox schema on the way in, whose Static type says what the path holds.
 */
export type WithTypedPaths<
  Inferred,
  Paths extends { [Key in keyof Paths]: Key extends keyof Inferred ? unknown : never },
> = Omit<Inferred, keyof Paths> & Paths;
