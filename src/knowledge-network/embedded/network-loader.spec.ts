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
    expect(check.network).toBeUndefined();
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
    expect(check.network).toBeDefined();
    expect(check.missingColumns).toEqual([
      'data/doctor.csv:1: declared column "department" missing (network "clinic_mini", object type doctor); loaded as null',
    ]);
  });
});
