'use strict';
/**
 * Demo tools for the clinic and k8s_ops example networks. Input schemas use `$defs` + `$ref` (including a
 * self-reference) on purpose: action recall must inline them into OpenAI function-call parameters.
 * Nothing here touches a real system: results are computed from the arguments.
 */

const prescriptionSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    Doctor: {
      type: 'object',
      description: '开方医生（可带上级医生，用于审核链）',
      properties: {
        doctor_id: { type: 'string', description: '医生编号' },
        name: { type: 'string', description: '医生姓名' },
        supervisor: { $ref: '#/$defs/Doctor', description: '审核处方的上级医生' },
      },
      required: ['doctor_id'],
    },
    PrescriptionItem: {
      type: 'object',
      description: '一条用药明细',
      properties: {
        drug_id: { type: 'string', description: '药品编号' },
        dosage_instruction: { type: 'string', description: '用法用量' },
        days_supply: { type: 'integer', minimum: 1, maximum: 90, description: '疗程天数' },
      },
      required: ['drug_id', 'dosage_instruction'],
    },
  },
  properties: {
    patient_id: { type: 'string', description: '患者编号' },
    patient_name: { type: 'string', description: '患者姓名' },
    allergy_history: { type: 'string', description: '过敏史，用于过敏校验' },
    clinic_code: { type: 'string', description: '开方机构编码' },
    drug_id: { type: 'string', description: '药品编号' },
    dosage_instruction: { type: 'string', description: '用法用量，如 口服，每次0.5g，每日2次' },
    days_supply: { type: 'integer', minimum: 1, maximum: 90, description: '疗程天数' },
    additional_items: { type: 'array', description: '同一处方中的其他药品', items: { $ref: '#/$defs/PrescriptionItem' } },
    prescriber: { $ref: '#/$defs/Doctor' },
  },
  required: ['patient_id', 'drug_id', 'dosage_instruction'],
};

const restartSchema = {
  type: 'object',
  $defs: {
    RolloutStrategy: {
      type: 'object',
      description: 'Rolling update budget',
      properties: {
        max_unavailable: { type: 'string', description: 'e.g. 25% or 1' },
        max_surge: { type: 'string', description: 'e.g. 25% or 1' },
      },
    },
  },
  properties: {
    namespace: { type: 'string', description: 'Namespace of the deployment' },
    deployment_name: { type: 'string', description: 'Deployment to restart' },
    reason: { type: 'string', description: 'Why the restart is needed (recorded in the rollout annotation)' },
    max_unavailable: { type: 'string', description: 'Rolling update budget, e.g. 25%' },
    strategy: { $ref: '#/$defs/RolloutStrategy' },
  },
  required: ['namespace', 'deployment_name'],
};

const scaleSchema = {
  type: 'object',
  properties: {
    namespace: { type: 'string', description: 'Namespace of the deployment' },
    deployment_name: { type: 'string', description: 'Deployment to scale' },
    replicas: { type: 'integer', minimum: 0, maximum: 100, description: 'New desired replica count' },
    dry_run: { type: 'boolean', description: 'Only validate the change' },
  },
  required: ['namespace', 'deployment_name', 'replicas'],
};

function text(value) {
  return { type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) };
}

function failure(message) {
  return { content: [text(message)], isError: true };
}

function missing(args, names) {
  return names.filter((name) => typeof args[name] !== 'string' || args[name].trim() === '');
}

let prescriptionCounter = 0;

function createPrescription(args) {
  const absent = missing(args, ['patient_id', 'drug_id', 'dosage_instruction']);
  if (absent.length > 0) return failure(`缺少必填参数: ${absent.join(', ')}`);
  prescriptionCounter += 1;
  const prescription = {
    prescription_id: `RX-${Date.now().toString(36).toUpperCase()}-${prescriptionCounter}`,
    status: 'pending_review',
    patient_id: args.patient_id,
    clinic_code: args.clinic_code || null,
    items: [
      { drug_id: args.drug_id, dosage_instruction: args.dosage_instruction, days_supply: args.days_supply ?? null },
      ...(Array.isArray(args.additional_items) ? args.additional_items : []),
    ],
    prescriber: args.prescriber || null,
  };
  return { content: [text(`处方 ${prescription.prescription_id} 已创建，等待药师审核`)], structuredContent: prescription };
}

function restartDeployment(args) {
  const absent = missing(args, ['namespace', 'deployment_name']);
  if (absent.length > 0) return failure(`missing required arguments: ${absent.join(', ')}`);
  const rollout = {
    namespace: args.namespace,
    deployment: args.deployment_name,
    restarted_at: new Date().toISOString(),
    reason: args.reason || '',
    max_unavailable: (args.strategy && args.strategy.max_unavailable) || args.max_unavailable || '25%',
    status: 'rollout_started',
  };
  return { content: [text(`deployment ${args.namespace}/${args.deployment_name} restart started`)], structuredContent: rollout };
}

function scaleDeployment(args) {
  const absent = missing(args, ['namespace', 'deployment_name']);
  if (!Number.isInteger(args.replicas)) absent.push('replicas');
  if (absent.length > 0) return failure(`missing required arguments: ${absent.join(', ')}`);
  const scaled = {
    namespace: args.namespace,
    deployment: args.deployment_name,
    replicas: args.replicas,
    dry_run: args.dry_run === true,
    status: args.dry_run === true ? 'validated' : 'scaling',
  };
  return {
    content: [text(`deployment ${args.namespace}/${args.deployment_name} scaled to ${args.replicas} replicas`)],
    structuredContent: scaled,
  };
}

function echo(args) {
  return { content: [text(args.message === undefined ? '' : String(args.message))] };
}

/** Tools per profile: `clinic` (mcp_id clinic_tools), `k8s` (mcp_id k8s_tools), `all`. */
const TOOLS = {
  create_prescription: {
    profiles: ['clinic'],
    definition: {
      name: 'create_prescription',
      description: '为患者开具处方：写入处方系统并返回处方编号，处方进入药师审核。',
      inputSchema: prescriptionSchema,
      annotations: { readOnlyHint: false, destructiveHint: false },
    },
    run: createPrescription,
  },
  restart_deployment: {
    profiles: ['k8s'],
    definition: {
      name: 'restart_deployment',
      description: 'Start a rolling restart of a Kubernetes deployment (simulated for the demo).',
      inputSchema: restartSchema,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    },
    run: restartDeployment,
  },
  scale_deployment: {
    profiles: ['k8s'],
    definition: {
      name: 'scale_deployment',
      description: 'Change the replica count of a Kubernetes deployment (simulated for the demo).',
      inputSchema: scaleSchema,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    },
    run: scaleDeployment,
  },
  echo: {
    profiles: ['clinic', 'k8s'],
    definition: {
      name: 'echo',
      description: 'Returns the message unchanged (a cheap call for health checks and benchmarks).',
      inputSchema: { type: 'object', properties: { message: { type: 'string' } } },
      annotations: { readOnlyHint: true },
    },
    run: echo,
  },
};

function toolsFor(profile) {
  return Object.values(TOOLS).filter((tool) => profile === 'all' || tool.profiles.includes(profile));
}

module.exports = { toolsFor };
