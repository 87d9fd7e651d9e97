import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { NetworkLoader } from './network-loader';

const FIXTURE = path.join(__dirname, '../../../test/fixtures/networks/clinic-mini');

describe('NetworkLoader', () => {
  let root: string;
  let folder: string;

  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), 'kn-loader-'));
    folder = path.join(root, 'clinic');
    cpSync(FIXTURE, folder, { recursive: true });
  });

  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const loadError = (): string => {
    try {
      new NetworkLoader(root).load(folder);
    } catch (error) {
      return (error as Error).message;
    }
    return 'no error';
  };

  it('loads the fixture with typed instance values and view rows', () => {
    const network = new NetworkLoader(root).load(folder);
    expect(network.schema.network).toMatchObject({ id: 'clinic_mini', tags: ['医疗', 'clinic'] });
    expect(network.instances.get('patient')!.rows[0]).toMatchObject({
      patient_id: 'P001',
      age: 58,
      chronic: true,
      registered_at: '2015-03-02',
    });
    expect(network.instances.get('patient')!.rows[6]).toMatchObject({
      city: null,
      registered_at: null,
    });
    expect(network.views.get('diagnosis_treated_with')).toHaveLength(9);
  });

  it('names the CSV file and line of a value that does not fit its type', () => {
    writeFileSync(
      path.join(folder, 'data', 'medicine.csv'),
      'medicine_id,name,category,price,indication\nM01,A,B,12.5,x\nM02,C,D,cheap,y\n',
    );
    expect(loadError()).toContain('clinic/data/medicine.csv:3: column "price": "cheap" is not a number');
  });

  it('rejects duplicate primary keys and a missing root file', () => {
    writeFileSync(path.join(folder, 'data', 'doctor.csv'), 'doctor_id,name,department,title\nDR1,a,b,c\nDR1,d,e,f\n');
    expect(loadError()).toContain('clinic/data/doctor.csv:3: duplicate primary key ["DR1"]');
    rmSync(path.join(folder, 'network.bkn'));
    expect(loadError()).toContain('clinic/network.bkn:1: root file does not exist');
  });

  it('checks references across files: endpoints and mapped properties', () => {
    const file = path.join(folder, 'relation_types', 'doctor_made_diagnosis.bkn');
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace('| doctor | diagnosis | direct |', '| nurse | diagnosis | direct |'));
    expect(loadError()).toContain(
      'clinic/relation_types/doctor_made_diagnosis.bkn:15: endpoint object type "nurse" is not defined in this network',
    );
  });

  it('collects every problem of the folder in one pass, each at its file and line', () => {
    writeFileSync(path.join(folder, 'data', 'doctor.csv'), 'doctor_id,name,department,title\nDR1,a,b,c\nDR1,d,e,f\n');
    writeFileSync(
      path.join(folder, 'data', 'medicine.csv'),
      'medicine_id,name,category,price,indication\nM01,A,B,12.5,x\nM02,C,D,cheap,y\n',
    );
    const check = new NetworkLoader(root, root).check(folder);
    expect(check.schema).toBeUndefined();
    expect(check.errors.map((error) => error.message)).toEqual([
      'clinic/data/doctor.csv:3: duplicate primary key ["DR1"] (first on line 2)',
      'clinic/data/medicine.csv:3: column "price": "cheap" is not a number',
    ]);
    expect(loadError()).toContain('clinic/data/medicine.csv:3: column "price"');
  });

  it('reports a missing declared column apart from errors, and names files relative to the given base', () => {
    writeFileSync(path.join(folder, 'data', 'doctor.csv'), 'doctor_id,name,title\nDR1,a,c\n');
    const check = new NetworkLoader(root, folder).check(folder);
    expect(check.errors).toEqual([]);
    expect(check.schema).toBeDefined();
    // Counted as they stream by, the same rows `load` keeps.
    const loaded = new NetworkLoader(root, folder).load(folder);
    expect(check.instances).toBe([...loaded.instances.values()].reduce((sum, entry) => sum + entry.rows.length, 0));
    expect(check.missingColumns).toEqual([
      'data/doctor.csv:1: declared column "department" missing (network "clinic_mini", object type doctor); loaded as null',
    ]);
  });

  describe('stream', () => {
    const streamed = (): { rows: Map<string, unknown[]>; views: Map<string, unknown[]>; finish: () => void } => {
      const { network, finish } = new NetworkLoader(root).stream(folder);
      const rows = new Map([...network.instances].map(([id, entry]) => [id, [...entry.rows]]));
      const views = new Map([...network.views].map(([id, entry]) => [id, [...entry]]));
      return { rows, views, finish };
    };

    it('reads the same rows, view rows, warnings and missing columns as load, as they are iterated', () => {
      writeFileSync(path.join(folder, 'data', 'doctor.csv'), 'doctor_id,name,title,extra\nDR1,a,c,x\nDR2,b,d,y\n');
      const loaded = new NetworkLoader(root).load(folder);
      const { network, finish } = new NetworkLoader(root).stream(folder);
      expect(network.missingColumns).toEqual([]); // nothing read yet
      const rows = new Map([...network.instances].map(([id, entry]) => [id, [...entry.rows]]));
      const views = new Map([...network.views].map(([id, entry]) => [id, [...entry]]));
      finish();
      expect(rows).toEqual(new Map([...loaded.instances].map(([id, entry]) => [id, entry.rows])));
      expect(views).toEqual(loaded.views);
      expect(network.warnings).toEqual(loaded.warnings);
      expect(network.missingColumns).toEqual(loaded.missingColumns);
      expect(network.missingColumns).toHaveLength(1);
    });

    it('reports a duplicate primary key with the line it was first on, and hands out no rows after an error', () => {
      const lines = ['doctor_id,name,department,title', ...Array.from({ length: 50 }, (_, i) => `DR${i},n,d,t`)];
      lines.push('DR7,again,d,t', 'DR60,after,d,t');
      writeFileSync(path.join(folder, 'data', 'doctor.csv'), `${lines.join('\n')}\n`);
      const { rows, finish } = streamed();
      expect(rows.get('doctor')).toHaveLength(50);
      expect(rows.get('patient')).toEqual([]);
      expect(finish).toThrow('clinic/data/doctor.csv:52: duplicate primary key ["DR7"] (first on line 9)');
    });

    it('reports every problem of rows and views at its file and line, in the order load does', () => {
      writeFileSync(path.join(folder, 'data', 'doctor.csv'), 'doctor_id,name,department,title\nDR1,a,b,c\nDR1,d,e,f\n');
      writeFileSync(
        path.join(folder, 'data', 'medicine.csv'),
        'medicine_id,name,category,price,indication\nM01,A,B,12.5,x\nM02,C,D,cheap,y\n',
      );
      const { finish } = streamed();
      expect(finish).toThrow(loadError());
      expect(loadError().split('\n')).toEqual([
        expect.stringMatching(/clinic\/data\/doctor\.csv:3: duplicate primary key \["DR1"\] \(first on line 2\)$/),
        expect.stringMatching(/clinic\/data\/medicine\.csv:3: column "price": "cheap" is not a number$/),
      ]);
    });

    it('throws at once, with the problems of every data file, when the definitions fail', () => {
      const file = path.join(folder, 'relation_types', 'doctor_made_diagnosis.bkn');
      writeFileSync(
        file,
        readFileSync(file, 'utf8').replace('| doctor | diagnosis | direct |', '| nurse | diagnosis | direct |'),
      );
      writeFileSync(path.join(folder, 'data', 'doctor.csv'), 'doctor_id,name,department,title\nDR1,a,b,c\nDR1,d,e,f\n');
      expect(() => new NetworkLoader(root).stream(folder)).toThrow(
        /endpoint object type "nurse" is not defined[\s\S]*doctor\.csv:3: duplicate primary key/,
      );
    });
  });
});
