// Builds every row of the clinic network (智慧诊所知识网络) from the catalogues and a seeded PRNG.
const DEPARTMENTS = require('./clinic-departments');
const DIAGNOSES = require('./clinic-diagnoses');
const DRUGS = require('./clinic-drugs');
const { uniqueChineseName } = require('./chinese-names');

const COUNTS = { patients: 600, visits: 300 };
/** Ages are computed against this date so output never depends on when the script runs. */
const REFERENCE_DATE = '2025-06-30';
const DISTRICTS = ['西湖区', '拱墅区', '上城区', '滨江区', '余杭区', '萧山区', '临平区', '钱塘区'];
const INSURANCE = [['城镇职工医保', 5], ['城乡居民医保', 4], ['商业保险', 1], ['自费', 1]];
const ALLERGIES = [['无', 14], ['青霉素', 2], ['磺胺类', 1], ['头孢类', 1], ['阿司匹林', 0.5], ['海鲜', 1], ['花粉', 1]];
const BLOOD_TYPES = [['A', 3], ['B', 3], ['O', 3.5], ['AB', 1]];
/** By seniority within a department: [title, consultation fee, years of practice range]. */
const TITLES = [['主任医师', 50, [22, 35]], ['副主任医师', 35, [14, 22]], ['主治医师', 20, [6, 14]], ['住院医师', 10, [1, 5]]];
/** Chronic, common conditions are diagnosed far more often than rare ones. */
const COMMON = { '2型糖尿病': 14, '原发性高血压': 14, '高脂血症': 6, '急性上呼吸道感染': 6, '慢性胃炎': 5, '代谢综合征': 4, '膝骨关节炎': 4 };
const ALLERGY_CLASH = { 青霉素: ['amox_clav', 'amoxicillin'], 头孢类: ['cefaclor'], 磺胺类: ['celecoxib'], 阿司匹林: ['aspirin'] };

const pad = (value, width) => String(value).padStart(width, '0');
const day = (random, from, to) => {
  const start = Date.parse(`${from}T00:00:00Z`);
  const span = Date.parse(`${to}T00:00:00Z`) - start;
  return new Date(start + Math.floor(random.next() * (span / 86400000 + 1)) * 86400000).toISOString().slice(0, 10);
};

function buildDepartments() {
  return DEPARTMENTS.map(([name, description, location, phone], i) => ({
    dept_id: `D${pad(i + 1, 2)}`,
    dept_name: name,
    description,
    location,
    phone_ext: phone,
  }));
}

function buildDrugs(random) {
  return DRUGS.map(([key, name, spec, category, indication, usage, contraindication, price, rxType], i) => ({
    key,
    drug_id: `DRG${pad(i + 1, 3)}`,
    drug_name: name,
    specification: spec,
    category,
    indication,
    usage_dosage: usage,
    contraindication,
    unit_price: price.toFixed(2),
    rx_type: rxType,
    stock_quantity: random.int(0, 480),
  }));
}

function buildDiagnoses(departments) {
  return DIAGNOSES.map(([dept, name, icd, category, severity, description, plan, drugKeys, complaint], i) => ({
    diagnosis_id: `DX${pad(i + 1, 3)}`,
    diagnosis_name: name,
    icd10_code: icd,
    category,
    severity,
    dept_id: departments[dept].dept_id,
    description,
    treatment_plan: plan,
    typical_symptoms: complaint,
    drugKeys,
    deptIndex: dept,
  }));
}

/** Department i gets 3 doctors, the four busiest get a fourth: 40 in all. */
function buildDoctors(random, departments, usedNames) {
  const doctors = [];
  departments.forEach((department, i) => {
    const focus = DEPARTMENTS[i][4];
    const size = [0, 1, 2, 11].includes(i) ? 4 : 3;
    for (let n = 0; n < size; n += 1) {
      const gender = random.chance(0.5) ? '男' : '女';
      const name = uniqueChineseName(random, gender, usedNames);
      const [title, fee, [fewest, most]] = TITLES[n];
      const years = random.int(fewest, most);
      const specialty = random.sample(focus, 2).join('、');
      doctors.push({
        doctor_id: `DR${pad(doctors.length + 1, 3)}`,
        doctor_name: name,
        gender,
        title,
        dept_id: department.dept_id,
        specialty,
        years_of_practice: years,
        consultation_fee: fee.toFixed(2),
        introduction: `${name}，${title}，从事${department.dept_name}临床工作${years}年，擅长${specialty}。`,
      });
    }
  });
  return doctors;
}

/** Age and sex follow the diagnosis (paediatric, obstetric, post-menopausal…). */
function demographicsFor(random, diagnosis) {
  if (diagnosis.deptIndex === 6) return { age: random.int(1, diagnosis.diagnosis_name === '小儿热性惊厥' ? 5 : 12), gender: random.pick(['男', '女']) };
  if (diagnosis.diagnosis_name === '更年期综合征') return { age: random.int(45, 56), gender: '女' };
  if (diagnosis.deptIndex === 7) return { age: random.int(22, 40), gender: '女' };
  if (diagnosis.diagnosis_name === '骨质疏松症') return { age: random.int(55, 85), gender: random.chance(0.8) ? '女' : '男' };
  if (diagnosis.diagnosis_name === '1型糖尿病') return { age: random.int(10, 30), gender: random.pick(['男', '女']) };
  if (diagnosis.diagnosis_name === '痤疮') return { age: random.int(16, 30), gender: random.pick(['男', '女']) };
  return { age: random.int(28, 84), gender: random.pick(['男', '女']) };
}

function medicalHistory(random, age, diagnoses, primary) {
  if (age < 18) return random.chance(0.8) ? '既往体健，按时预防接种' : '既往有反复呼吸道感染史';
  const chronic = diagnoses.filter((d) => d !== primary && d.deptIndex < 6 && ['中度', '重度'].includes(d.severity));
  const count = age > 55 ? random.int(0, 2) : random.int(0, 1);
  if (count === 0) return '既往体健';
  return random
    .sample(chronic, count)
    .map((d) => `${d.diagnosis_name}病史${random.int(1, Math.max(2, Math.floor(age / 8)))}年`)
    .join('；');
}

function buildPatients(random, diagnoses, usedNames) {
  const weights = diagnoses.map((d) => [d, COMMON[d.diagnosis_name] ?? 1.5]);
  const birthYear = Number(REFERENCE_DATE.slice(0, 4));
  return Array.from({ length: COUNTS.patients }, (_, i) => {
    const primary = random.weighted(weights);
    const { age, gender } = demographicsFor(random, primary);
    const name = uniqueChineseName(random, gender, usedNames);
    return {
      patient_id: `P${pad(i + 1, 5)}`,
      patient_name: name,
      gender,
      birth_date: day(random, `${birthYear - age - 1}-07-01`, `${birthYear - age}-06-30`),
      age,
      phone: `1${random.pick(['35', '38', '39', '58', '86', '88'])}****${pad(random.int(0, 9999), 4)}`,
      district: random.pick(DISTRICTS),
      blood_type: random.weighted(BLOOD_TYPES),
      allergy_history: random.weighted(ALLERGIES),
      insurance_type: age < 18 ? '城乡居民医保' : random.weighted(INSURANCE),
      primary_diagnosis_id: primary.diagnosis_id,
      medical_history: medicalHistory(random, age, diagnoses, primary),
      registered_at: day(random, '2019-01-01', '2025-01-31'),
    };
  });
}

module.exports = { COUNTS, REFERENCE_DATE, ALLERGY_CLASH, pad, day, buildDepartments, buildDrugs, buildDiagnoses, buildDoctors, buildPatients };
