"""Users seen for the first time get DEFAULT_PLAN; chat backends set plans; changes are audited."""
from django.test import override_settings

from accounts.models import UserPlan
from audit.models import AuditLog


@override_settings(DEFAULT_PLAN="PREMIUM")
def test_new_users_get_the_configured_default_plan(system_client, chunsim):
    # A read shows the plan a user never seen would start with, and creates nothing (issue 7 item 7) ...
    assert system_client.get("/api/accounts/plan?user=newcomer").json() == {"user": "newcomer", "plan": "PREMIUM"}
    assert not UserPlan.objects.filter(user__username="newcomer").exists()
    # ... the first write creates them, on that plan.
    response = system_client.put("/api/context/chunsim/tools?user=newcomer", {"avoidTopics": []}, format="json")
    assert response.status_code == 200
    assert UserPlan.objects.get(user__username="newcomer").plan == "PREMIUM"


def test_system_sets_a_plan_and_it_is_audited(system_client, alice):
    response = system_client.put("/api/accounts/plan?user=alice", {"plan": "ULTIMATE"}, format="json")
    assert response.status_code == 200 and response.json() == {"user": "alice", "plan": "ULTIMATE"}
    assert UserPlan.objects.get(user=alice).plan == "ULTIMATE"
    row = AuditLog.objects.get(object_type="user_plan", action="updated")
    assert row.details == {"from_plan": "FREE", "to_plan": "ULTIMATE"}


def test_plan_api_permissions_and_validation(system_client, alice_client, bob_client, anon_client, alice):
    assert alice_client.get("/api/accounts/plan").json() == {"user": "alice", "plan": "FREE"}
    assert alice_client.put("/api/accounts/plan", {"plan": "ULTIMATE"}, format="json").status_code == 403
    assert bob_client.get("/api/accounts/plan?user=alice").status_code == 403
    assert anon_client.get("/api/accounts/plan").status_code == 401
    bad = system_client.put("/api/accounts/plan?user=alice", {"plan": "GOLD"}, format="json")
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "VALIDATION_ERROR"
    assert UserPlan.objects.get(user=alice).plan == "FREE"
