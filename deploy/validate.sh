#!/usr/bin/env bash
# Validates the deployment files (run by .ci/run): every Kubernetes manifest against the
# API schemas with kubernetes-validate (from PyPI, installed here into a virtualenv under
# target/), strict (an unknown field fails); the compose file and nginx configurations
# parsed; the termination grace period checked against the ConfigMap's pairing limits.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=target/deploy-venv
if [ ! -x "$venv/bin/kubernetes-validate" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check kubernetes-validate
fi

manifests=(deploy/k8s/configmap.yaml deploy/k8s/deployment.yaml deploy/k8s/service.yaml
           deploy/k8s/hpa.yaml deploy/k8s/pdb.yaml)
# Every manifest of the directory is listed (a new file must be added above).
for f in deploy/k8s/*.yaml; do
  case " ${manifests[*]} deploy/k8s/kustomization.yaml " in
    *" $f "*) ;;
    *) echo "deploy/validate.sh: $f is not validated: add it to the list" >&2; exit 1 ;;
  esac
done
"$venv/bin/kubernetes-validate" --strict --quiet "${manifests[@]}"

"$venv/bin/python" - <<'PY'
import sys, yaml
with open("deploy/compose.yaml") as f:
    compose = yaml.safe_load(f)
replicas = [s for s in compose["services"] if s.startswith("swisspair-")]
assert len(replicas) == 3, f"compose: 3 replicas expected, got {replicas}"
assert "nginx" in compose["services"], "compose: no nginx"
with open("deploy/k8s/kustomization.yaml") as f:
    kust = yaml.safe_load(f)
assert kust["resources"], "kustomization: no resources"
with open("deploy/k8s/configmap.yaml") as f:
    cm = yaml.safe_load(f)["data"]
with open("deploy/k8s/deployment.yaml") as f:
    dep = yaml.safe_load(f)
spec = dep["spec"]["template"]["spec"]
grace = spec["terminationGracePeriodSeconds"]
need = float(cm["MAX_PAIRING_SECONDS"]) + float(cm["DRAIN_SECONDS"])
assert grace > need, f"terminationGracePeriodSeconds {grace} <= max pairing + drain {need}"
assert dep["spec"]["replicas"] == 3
c = spec["containers"][0]
assert "grpc" in c["readinessProbe"] and "grpc" in c["livenessProbe"], "probes must be native gRPC"
assert c["resources"]["requests"] and c["resources"]["limits"]
print(f"deploy: compose and manifests consistent (grace {grace} s > pairing + drain {need:.0f} s)")
PY
bash -n deploy/local-fleet.sh
echo "deploy: ${#manifests[@]} Kubernetes manifests valid"
