import { PersonalDataVault, type PersonalDataGroup } from '@ques/kit';

const person = (role: 'asker' | 'recipient'): string[][] => [
  [role, 'username'],
  [role, 'name'],
  [role, 'email'],
];

/**
 * Questions' events name two people: the asker and the recipient. Each one's name, username and e-mail are sealed
 * under their own key (ADR 0010); `UserDeleted` destroys the key, so the event stream keeps nothing readable of
 * them. A guest asker has no account to delete: their typed-in details are stored as they are.
 */
export const questionsVault = new PersonalDataVault({
  groups: ({ type, data }): PersonalDataGroup[] => {
    const d = data as { asker?: { userId: string | null }; recipient?: { userId: string }; recipientUserId?: string };
    switch (type) {
      case 'QuestionAsked':
      case 'TippedQuestionSubmitted':
        return [
          { subject: d.asker?.userId ?? null, paths: person('asker') },
          { subject: d.recipient?.userId ?? null, paths: person('recipient') },
        ];
      case 'QuestionCurated':
        return [{ subject: d.recipient?.userId ?? null, paths: [...person('recipient'), ['replierName']] }];
      case 'AnswerPosted':
        return [{ subject: d.recipientUserId ?? null, paths: [['replierName']] }];
      default:
        return [];
    }
  },
});
