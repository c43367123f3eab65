import { Modal } from '../../components/Modal';

/** Placeholder: the support form (category, title, description, captcha) arrives in part 2. */
export default function SupportModal({ onClose }: { onClose: () => void }) {
  return (
    <Modal title="Support" onClose={onClose}>
      {(requestClose) => (
        <div className="support-placeholder">
          <p>The support form is coming soon. Thanks for your patience.</p>
          <button type="button" className="button button--primary" onClick={requestClose}>
            Close
          </button>
        </div>
      )}
    </Modal>
  );
}
