/** A relation_type_paths entry on the clinic demo network: one patient and the diagnoses it was given. */
export function diagnosisPath(patientId: string): Record<string, unknown> {
  return {
    object_types: [
      {
        id: 'patient',
        condition: { operation: '==', field: 'patient_id', value: patientId, value_from: 'const' },
        limit: 1,
      },
      { id: 'diagnosis', limit: 10 },
    ],
    relation_types: [
      {
        relation_type_id: 'patient_diagnosed_with',
        source_object_type_id: 'patient',
        target_object_type_id: 'diagnosis',
      },
    ],
  };
}
