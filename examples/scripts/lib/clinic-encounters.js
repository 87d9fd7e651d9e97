// Visits (就诊记录), prescriptions (处方) and the two relation views, derived from patients and catalogues.
const { COUNTS, ALLERGY_CLASH, pad, day } = require('./clinic-generator');

const ADULT_ACUTE = ['急性上呼吸道感染', '急性支气管炎', '流行性感冒'];
const CHILD_ACUTE = ['手足口病', '小儿腹泻', '小儿支气管肺炎'];
const FOLLOW_UP = { 轻度: '1周后', 中度: '2周后', 重度: '1个月后定期' };
const STATUSES = [['已发药', 90], ['待取药', 7], ['已作废', 3]];
const THERAPY_LINES = ['首选', '可选', '可选', '联合或替代'];

/** Most visits treat the patient's own diagnosis; some are an acute illness in between. */
function visitDiagnosis(random, patient, byId, byName) {
  if (random.chance(0.85)) return byId.get(patient.primary_diagnosis_id);
  return byName.get(random.pick(patient.age < 13 ? CHILD_ACUTE : ADULT_ACUTE));
}

/** The first drug of the diagnosis list the patient is not allergic to (weighted to first-line). */
function chooseDrug(random, diagnosis, patient, drugsByKey) {
  const banned = ALLERGY_CLASH[patient.allergy_history] ?? [];
  const allowed = diagnosis.drugKeys.filter((key) => !banned.includes(key));
  const keys = allowed.length ? allowed : diagnosis.drugKeys;
  const key = random.weighted(keys.map((k, i) => [k, i === 0 ? 4 : 1]));
  return drugsByKey.get(key);
}

function buildEncounters(random, { patients, diagnoses, doctors, drugs }) {
  const byId = new Map(diagnoses.map((d) => [d.diagnosis_id, d]));
  const byName = new Map(diagnoses.map((d) => [d.diagnosis_name, d]));
  const drugsByKey = new Map(drugs.map((d) => [d.key, d]));
  const visited = new Set();
  const dates = Array.from({ length: COUNTS.visits }, () => day(random, '2025-01-02', '2025-06-30')).sort();
  const visits = [];
  const prescriptions = [];
  dates.forEach((visitDate, i) => {
    const patient = random.pick(patients);
    const diagnosis = visitDiagnosis(random, patient, byId, byName);
    const doctor = random.pick(doctors.filter((d) => d.dept_id === diagnosis.dept_id));
    const drug = chooseDrug(random, diagnosis, patient, drugsByKey);
    const visit = buildVisit(random, i, visitDate, { patient, diagnosis, doctor, drug }, visited);
    visits.push(visit);
    prescriptions.push(buildPrescription(random, i, visit, { patient, diagnosis, drug }));
  });
  return { visits, prescriptions };
}

/** Whether the complaint already says how long it has lasted ("三天", "多年"…). */
const stated = (complaint) => /[天周月年]/.test(complaint);

function buildVisit(random, index, visitDate, { patient, diagnosis, doctor, drug }, visited) {
  const returning = visited.has(patient.patient_id);
  visited.add(patient.patient_id);
  const onset = random.pick(['3天', '1周', '2周', '1个月', '半年']);
  return {
    visit_id: `V${pad(index + 1, 6)}`,
    patient_id: patient.patient_id,
    doctor_id: doctor.doctor_id,
    diagnosis_id: diagnosis.diagnosis_id,
    visit_date: visitDate,
    visit_type: returning ? '复诊' : diagnosis.severity !== '轻度' && random.chance(0.1) ? '急诊' : '初诊',
    chief_complaint: `${diagnosis.typical_symptoms}${returning ? '，复诊' : stated(diagnosis.typical_symptoms) ? '' : `，约${onset}`}`,
    clinical_notes: `诊断：${diagnosis.diagnosis_name}（${diagnosis.severity}）。处理：${drug.drug_name}，${drug.usage_dosage}；嘱${FOLLOW_UP[diagnosis.severity]}复诊。`,
    fee: (Number(doctor.consultation_fee) + random.int(0, 12) * 10).toFixed(2),
  };
}

function buildPrescription(random, index, visit, { patient, diagnosis, drug }) {
  const chronic = diagnosis.severity !== '轻度';
  return {
    prescription_id: `RX${pad(index + 1, 6)}`,
    visit_id: visit.visit_id,
    patient_id: patient.patient_id,
    drug_id: drug.drug_id,
    dosage_instruction: drug.usage_dosage,
    quantity: random.int(1, chronic ? 3 : 2),
    days_supply: chronic ? random.pick([14, 28, 30]) : random.pick([3, 5, 7]),
    issued_at: `${visit.visit_date}T${pad(random.int(8, 16), 2)}:${pad(random.int(0, 59), 2)}:00+08:00`,
    status: random.weighted(STATUSES),
  };
}

/** diagnosis → drug, one row per recommended drug (the `diagnosis_treated_by_drug` view). */
function buildDiagnosisDrugView(diagnoses, drugs) {
  const drugsByKey = new Map(drugs.map((d) => [d.key, d]));
  return diagnoses.flatMap((diagnosis) =>
    diagnosis.drugKeys.map((key, i) => {
      const drug = drugsByKey.get(key);
      const line = THERAPY_LINES[Math.min(i, THERAPY_LINES.length - 1)];
      return {
        diagnosis_id: diagnosis.diagnosis_id,
        drug_id: drug.drug_id,
        therapy_line: line,
        recommendation: `${diagnosis.diagnosis_name}${line}用药：${drug.drug_name}`,
      };
    }),
  );
}

/** patient → drug, one row per dispensed prescription (the `patient_prescribed_drug` view). */
function buildPatientDrugView(prescriptions) {
  return prescriptions
    .filter((p) => p.status !== '已作废')
    .map((p) => ({ patient_id: p.patient_id, drug_id: p.drug_id, prescription_id: p.prescription_id, issued_at: p.issued_at }));
}

module.exports = { buildEncounters, buildDiagnosisDrugView, buildPatientDrugView };
