// The skills of the demo networks (find_skills): hand-picked rows, no randomness, so adding them leaves
// every other generated table unchanged. A skill is bound to instances through a relation (clinic:
// skill_diagnosis_view; k8s_ops: pod_status / node_status) or to a whole object type by object_type_id.

const CLINIC_SKILLS = [
  {
    skill_id: 'SK001',
    name: '糖尿病随访',
    description: '糖尿病患者的定期随访：复查空腹血糖和糖化血红蛋白，评估用药依从性与低血糖风险，给出饮食运动建议并约定下次随访',
    diagnoses: ['DX001', 'DX002'],
  },
  {
    skill_id: 'SK002',
    name: '高血压随访',
    description: '高血压患者的定期随访：记录家庭血压，评估降压达标情况和药物不良反应，调整生活方式干预并约定下次随访',
    diagnoses: ['DX006', 'DX037'],
  },
  {
    skill_id: 'SK003',
    name: '糖尿病并发症筛查',
    description: '已出现糖尿病并发症的患者：安排眼底检查、尿微量白蛋白和足部神经检查，跟踪并发症进展',
    diagnoses: ['DX003', 'DX026', 'DX051'],
  },
  {
    skill_id: 'SK004',
    name: '慢性气道疾病管理',
    description: '哮喘和慢阻肺患者的长期管理：评估症状控制和急性发作风险，检查吸入装置使用方法，制定行动计划',
    diagnoses: ['DX012', 'DX013', 'DX034'],
  },
  {
    skill_id: 'SK005',
    name: '处方审核',
    description: '药师审核处方：核对适应症、用法用量、疗程天数、过敏史和药物相互作用，发现问题退回医生修改',
    object_type_id: 'prescription',
  },
  {
    skill_id: 'SK006',
    name: '患者建档',
    description: '为新患者建立健康档案：登记基本信息、医保类型、过敏史和既往史，确认主要诊断',
    object_type_id: 'patient',
  },
  {
    skill_id: 'SK007',
    name: '初诊问诊',
    description: '首次就诊的结构化问诊：主诉、现病史、既往史、过敏史和家族史，生成就诊记录',
    object_type_id: 'patient visit',
  },
  {
    skill_id: 'SK008',
    name: '用药咨询',
    description: '解答患者关于用法用量、服药时间、不良反应和漏服处理的问题',
    object_type_id: 'drug,prescription',
  },
];

const K8S_SKILLS = [
  {
    skill_id: 'crashloop_triage',
    name: 'CrashLoopBackOff triage',
    description:
      'Triage a pod stuck in CrashLoopBackOff: read the previous container logs and last event, check recent image or config changes and probes, then roll back or restart the deployment',
    pod_status: 'CrashLoopBackOff',
  },
  {
    skill_id: 'pending_pod_scheduling',
    name: 'Pending pod scheduling check',
    description:
      'Find why a pod stays Pending: unschedulable nodes, insufficient CPU or memory requests, taints, or an image that cannot be pulled',
    pod_status: 'Pending',
  },
  {
    skill_id: 'failed_pod_forensics',
    name: 'Failed pod forensics',
    description: 'Collect the exit code, termination reason and events of a Failed pod before it is garbage-collected',
    pod_status: 'Failed',
  },
  {
    skill_id: 'node_not_ready_recovery',
    name: 'Node NotReady recovery',
    description:
      'Recover a NotReady node: check kubelet and container runtime, disk and memory pressure, cordon and drain it if it does not come back',
    node_status: 'NotReady',
  },
  {
    skill_id: 'deployment_rollout_recovery',
    name: 'Deployment rollout recovery',
    description:
      'Recover a stuck or degraded rollout: compare available and desired replicas, inspect the new replica set, pause, roll back or scale',
    object_type_id: 'deployment',
  },
  {
    skill_id: 'alert_triage',
    name: 'Alert triage',
    description: 'Go from a firing alert to its pod, node and deployment, decide severity and the owning team',
    object_type_id: 'alert',
  },
];

function buildClinicSkills() {
  return CLINIC_SKILLS.map(({ skill_id, name, description, object_type_id }) => ({ skill_id, name, description, object_type_id }));
}

function buildSkillDiagnosisView() {
  return CLINIC_SKILLS.flatMap((skill) => (skill.diagnoses ?? []).map((diagnosis_id) => ({ skill_id: skill.skill_id, diagnosis_id })));
}

function buildK8sSkills() {
  return K8S_SKILLS;
}

module.exports = { buildClinicSkills, buildSkillDiagnosisView, buildK8sSkills };
