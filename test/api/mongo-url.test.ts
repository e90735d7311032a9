import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { databaseOf, withDatabase } from '../../src/infra/mongo-url.ts';
import { connectMongo } from '../../src/infra/mongo.ts';

describe('MONGODB_URL in every valid form gets a database of its own', () => {
  const cases: Array<[string, string]> = [
    ['mongodb://127.0.0.1:27017', 'mongodb://127.0.0.1:27017/t_1'],
    ['mongodb://127.0.0.1:27017/', 'mongodb://127.0.0.1:27017/t_1'],
    ['mongodb://127.0.0.1:27017/pushengine', 'mongodb://127.0.0.1:27017/t_1'],
    ['mongodb://127.0.0.1:27017/?retryWrites=false', 'mongodb://127.0.0.1:27017/t_1?retryWrites=false'],
    [
      'mongodb://app:s%40cret@db1:27017,db2:27017/pushengine?authSource=admin&replicaSet=rs0',
      'mongodb://app:s%40cret@db1:27017,db2:27017/t_1?authSource=admin&replicaSet=rs0',
    ],
    [
      'mongodb+srv://app:pw@cluster0.example.net/?retryWrites=true&w=majority&authSource=admin',
      'mongodb+srv://app:pw@cluster0.example.net/t_1?retryWrites=true&w=majority&authSource=admin',
    ],
    // Credentials without authSource log in against the path's database (admin when none), wherever the data goes.
    ['mongodb://app:pw@db1:27017', 'mongodb://app:pw@db1:27017/t_1?authSource=admin'],
    [
      'mongodb://app:pw@db1:27017/pushengine?w=majority',
      'mongodb://app:pw@db1:27017/t_1?w=majority&authSource=pushengine',
    ],
  ];
  it.each(cases)('%s', (url, expected) => {
    expect(withDatabase(url, 't_1')).toBe(expected);
    expect(databaseOf(withDatabase(url, 't_1'))).toBe('t_1');
  });

  it('a URL with options and a database of its own connects to the database named by withDatabase', async () => {
    const base = withDatabase(inject('mongoUrl'), 'named_in_url');
    const connection = await connectMongo(withDatabase(base, 'chosen_db'));
    try {
      expect(connection.db!.databaseName).toBe('chosen_db');
      await connection.collection('probe').insertOne({ ok: 1 });
      expect(await connection.collection('probe').countDocuments()).toBe(1);
    } finally {
      await connection.dropDatabase();
      await connection.close();
    }
  });
});
