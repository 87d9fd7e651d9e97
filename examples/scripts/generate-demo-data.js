#!/usr/bin/env node
// Regenerates the CSV instance data of the two demo networks (examples/networks/{clinic,k8s_ops}/data).
// `--check` writes nothing and exits 1 when a committed CSV differs from what the generator produces.
// Deterministic: a fixed seed per network, no clock, no dependencies. The .bkn files are hand-written;
// the column lists below must equal each object type's Data Properties (check-demo-data.js verifies).
const { existsSync, mkdirSync, readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { createRandom } = require('../../scripts/lib/seeded-random');
const { csvText } = require('../../scripts/lib/csv');
const clinic = require('./lib/clinic-generator');
const { buildEncounters, buildDiagnosisDrugView, buildPatientDrugView } = require('./lib/clinic-encounters');
const k8s = require('./lib/k8s-generator');
const skills = require('./lib/demo-skills');

const NETWORKS_DIR = join(__dirname, '..', 'networks');

const CLINIC_TABLES = {
  department: ['dept_id', 'dept_name', 'description', 'location', 'phone_ext'],
  doctor: ['doctor_id', 'doctor_name', 'gender', 'title', 'dept_id', 'specialty', 'years_of_practice', 'consultation_fee', 'introduction'],
  diagnosis: ['diagnosis_id', 'diagnosis_name', 'icd10_code', 'category', 'severity', 'dept_id', 'description', 'treatment_plan', 'typical_symptoms'],
  drug: ['drug_id', 'drug_name', 'specification', 'category', 'indication', 'usage_dosage', 'contraindication', 'unit_price', 'rx_type', 'stock_quantity'],
  patient: ['patient_id', 'patient_name', 'gender', 'birth_date', 'age', 'phone', 'district', 'blood_type', 'allergy_history', 'insurance_type', 'primary_diagnosis_id', 'medical_history', 'registered_at'],
  visit: ['visit_id', 'patient_id', 'doctor_id', 'diagnosis_id', 'visit_date', 'visit_type', 'chief_complaint', 'clinical_notes', 'fee'],
  prescription: ['prescription_id', 'visit_id', 'patient_id', 'drug_id', 'dosage_instruction', 'quantity', 'days_supply', 'issued_at', 'status'],
  diagnosis_drug_view: ['diagnosis_id', 'drug_id', 'therapy_line', 'recommendation'],
  patient_drug_view: ['patient_id', 'drug_id', 'prescription_id', 'issued_at'],
  skills: ['skill_id', 'name', 'description', 'object_type_id'],
  skill_diagnosis_view: ['skill_id', 'diagnosis_id'],
};

const K8S_TABLES = {
  namespace: ['namespace_name', 'team', 'environment', 'description', 'cpu_quota_cores'],
  node: ['node_name', 'role', 'zone', 'instance_type', 'kubelet_version', 'cpu_cores', 'memory_gi', 'status', 'condition_message'],
  deployment: ['deployment_id', 'deployment_name', 'namespace', 'image', 'replicas', 'available_replicas', 'strategy', 'status', 'last_rollout_at', 'description'],
  pod: ['pod_id', 'pod_name', 'namespace', 'deployment_id', 'node_name', 'status', 'restart_count', 'pod_ip', 'cpu_request_m', 'memory_request_mi', 'started_at', 'last_event'],
  service: ['service_id', 'service_name', 'namespace', 'service_type', 'cluster_ip', 'ports', 'selector', 'description'],
  alert: ['alert_id', 'alert_name', 'severity', 'status', 'pod_id', 'namespace', 'summary', 'started_at'],
  service_pod_view: ['service_id', 'pod_id', 'endpoint'],
  skills: ['skill_id', 'name', 'description', 'object_type_id', 'pod_status', 'node_status'],
};

function clinicRows() {
  const random = createRandom('clinic');
  const usedNames = new Set();
  const departments = clinic.buildDepartments();
  const drugs = clinic.buildDrugs(random);
  const diagnoses = clinic.buildDiagnoses(departments);
  const doctors = clinic.buildDoctors(random, departments, usedNames);
  const patients = clinic.buildPatients(random, diagnoses, usedNames);
  const { visits, prescriptions } = buildEncounters(random, { patients, diagnoses, doctors, drugs });
  return {
    department: departments, doctor: doctors, diagnosis: diagnoses, drug: drugs, patient: patients, visit: visits,
    prescription: prescriptions,
    diagnosis_drug_view: buildDiagnosisDrugView(diagnoses, drugs),
    patient_drug_view: buildPatientDrugView(prescriptions),
    skills: skills.buildClinicSkills(),
    skill_diagnosis_view: skills.buildSkillDiagnosisView(),
  };
}

function k8sRows() {
  const random = createRandom('k8s_ops');
  const nodes = k8s.buildNodes(random);
  const deployments = k8s.buildDeployments(random);
  const pods = k8s.buildPods(random, deployments, nodes);
  const services = k8s.buildServices(random, deployments);
  return {
    namespace: k8s.buildNamespaces(), node: nodes, deployment: deployments, pod: pods, service: services,
    alert: k8s.buildAlerts(random, pods), service_pod_view: k8s.buildServicePodView(services, pods),
    skills: skills.buildK8sSkills(),
  };
}

/** Writes (or, with `check`, compares) every table; returns row counts and the files that differ. */
function syncNetwork(folder, tables, rows, check) {
  const dataDir = join(NETWORKS_DIR, folder, 'data');
  if (!check) mkdirSync(dataDir, { recursive: true });
  const counts = {};
  const stale = [];
  for (const [file, columns] of Object.entries(tables)) {
    const path = join(dataDir, `${file}.csv`);
    const text = csvText(columns, rows[file]);
    counts[file] = rows[file].length;
    if (!check) writeFileSync(path, text, 'utf8');
    else if (!existsSync(path) || readFileSync(path, 'utf8') !== text) stale.push(`${folder}/data/${file}.csv`);
  }
  return { counts, stale };
}

function main() {
  const check = process.argv.includes('--check');
  const results = { clinic: syncNetwork('clinic', CLINIC_TABLES, clinicRows(), check), k8s_ops: syncNetwork('k8s_ops', K8S_TABLES, k8sRows(), check) };
  for (const [network, { counts }] of Object.entries(results)) {
    console.log(`${network}: ${Object.entries(counts).map(([file, count]) => `${file}=${count}`).join(' ')}`);
  }
  const stale = Object.values(results).flatMap((result) => result.stale);
  if (stale.length) {
    console.error(`out of date (run node examples/scripts/generate-demo-data.js): ${stale.join(', ')}`);
    process.exit(1);
  }
  if (check) console.log('committed CSVs match the generator');
}

main();
